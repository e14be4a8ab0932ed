import { TTL_ALLOWED } from '@agent/cache';
import { OUTPUT_FORMATS, REASONING_EFFORTS } from '@agent/protocol';
import { GUARDRAIL_PROPERTIES } from '../guardrails/frontmatter.js';
import { normaliseGuardrailForms } from '../guardrails/read.js';
import { normaliseOrchestration, ORCHESTRATION_PROPERTIES } from '../orchestration/frontmatter.js';
import { listShorthand } from './list-shorthand.js';

// The keys of an agent file's frontmatter and of the config's `defaults`, as JSON Schemas.
// `x-expects` says in words what a value must be; validation messages quote it.

type Schema = Record<string, unknown>;

/** `caching`: Anthropic prompt caching for this agent's calls (`full`, the default) or none. */
export const CACHING_MODES = ['full', 'none'] as const;

const positiveInteger = (what = 'a positive integer'): Schema => ({
  type: 'integer',
  minimum: 1,
  'x-expects': what,
});

const stringList = (what: string): Schema => ({
  type: 'array',
  items: { type: 'string', minLength: 1, 'x-expects': 'a non-empty string' },
  'x-expects': what,
});

/** A sampling setting: a value, or `null` (`none` in a file) for "do not send this parameter". */
const omittable = (schema: Schema): Schema => ({
  ...schema,
  type: [schema.type, 'null'],
  'x-expects': `${schema['x-expects']}, or null / none (not sent)`,
});

const duration = (what: string): Schema => ({
  type: 'integer',
  minimum: 1,
  'x-expects': `a positive number of milliseconds or a duration such as 30s, 5m, 1h (${what})`,
});

const REASONING: Schema = {
  type: 'object',
  properties: {
    effort: { enum: [...REASONING_EFFORTS], 'x-expects': `one of ${REASONING_EFFORTS.join(', ')}` },
    budgetTokens: positiveInteger('a positive integer (thinking tokens)'),
  },
  additionalProperties: false,
  'x-expects': `an effort (${REASONING_EFFORTS.join(', ')}) or an object { effort, budgetTokens }`,
};

/** The serialisable settings of `@agent/tool-output` (the module that stores oversized tool results). */
export const TOOL_OUTPUT: Schema = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean', 'x-expects': 'true or false' },
    storeDir: { type: 'string', minLength: 1, 'x-expects': 'a directory path' },
    models: stringList('a list of `provider/model` strings (or one string) for the extraction calls'),
    maxChunks: positiveInteger(),
    overlapPercent: { type: 'number', minimum: 0, maximum: 50, 'x-expects': 'a number from 0 to 50' },
    avgLineBytesThreshold: positiveInteger(),
    truncateBytes: positiveInteger(),
    readGrepMaxTurns: positiveInteger(),
    mapConcurrency: positiveInteger(),
    extractionOutputTokens: positiveInteger(),
  },
  additionalProperties: false,
  'x-expects': 'true, false or an object of tool-output settings',
};

/** Session settings: allowed in the frontmatter and in the config's `defaults`. */
export const SETTINGS_PROPERTIES: Record<string, Schema> = {
  maxTurns: positiveInteger('a positive integer (turns)'),
  maxRetries: {
    type: 'integer',
    minimum: 0,
    'x-expects': 'an integer >= 0 (attempts per turn; 0 is one attempt without retry)',
  },
  maxToolCallsPerTurn: positiveInteger(),
  llmTimeout: duration('per model call'),
  toolTimeout: duration('per tool call'),
  temperature: omittable({ type: 'number', minimum: 0, maximum: 2, 'x-expects': 'a number from 0 to 2' }),
  topP: omittable({
    type: 'number',
    exclusiveMinimum: 0,
    maximum: 1,
    'x-expects': 'a number above 0 and at most 1',
  }),
  topK: omittable(positiveInteger('a positive integer (tokens to sample from)')),
  repeatPenalty: omittable({
    type: 'number',
    exclusiveMinimum: 0,
    maximum: 2,
    'x-expects': 'a number above 0 and at most 2 (1 = no penalty)',
  }),
  maxOutputTokens: omittable(positiveInteger('a positive integer (tokens)')),
  reasoning: REASONING,
  // Moved into `reasoning.budgetTokens` by `normaliseShorthands`; here for the message on a bad value.
  reasoningTokens: {
    type: 'integer',
    minimum: 0,
    'x-expects': 'an integer >= 0 (thinking tokens; 0 turns thinking off)',
  },
  caching: { enum: [...CACHING_MODES], 'x-expects': 'full or none (Anthropic prompt caching)' },
  contextWindow: positiveInteger('a positive integer (tokens)'),
  contextWindowBufferTokens: {
    type: 'integer',
    minimum: 0,
    'x-expects': 'an integer >= 0 (tokens kept free below the context window)',
  },
  toolResponseMaxBytes: positiveInteger('a positive integer (bytes)'),
  toolOutput: TOOL_OUTPUT,
  // Its keys and bounds are the core's `compactionProblems` (agent-file/core-settings.ts).
  compaction: {
    type: ['boolean', 'object'],
    'x-expects': 'true, false or an object { at, keep, attempts, tokens } (each optional)',
  },
  // Its keys and bounds are the core's `toolSearchProblems` (agent-file/core-settings.ts).
  toolSearch: {
    type: 'object',
    'x-expects': 'an object { after, alwaysOn?, maxResults?, native? } (docs/tool-search.md)',
  },
  approval: {
    type: 'object',
    properties: { tools: stringList('a list of tool-name globs (fs__Write*, agent__deploy)') },
    additionalProperties: false,
    'x-expects': 'an object { tools: [tool-name globs] }',
  },
};

export const SETTINGS_KEYS = Object.keys(SETTINGS_PROPERTIES);

const MODELS = stringList('a list of `provider/model` strings (or one string)');

const SCHEMA_OBJECT: Schema = { type: 'object', 'x-expects': 'a JSON Schema object' };

export const INPUT_FORMATS = ['text', 'json'] as const;

const toolGlobs = (what: string): Schema =>
  stringList(`a list of tool-name globs (or one string) ${what}; \`*\` matches any run of characters`);

/** Every frontmatter key. */
export const FRONTMATTER_SCHEMA: Schema = {
  type: 'object',
  properties: {
    description: { type: 'string', 'x-expects': 'a string' },
    usage: { type: 'string', 'x-expects': 'a string' },
    toolName: {
      type: 'string',
      pattern: '^[A-Za-z][A-Za-z0-9_-]{0,56}$',
      'x-expects': 'a name of letters, digits, `_` and `-` that starts with a letter (at most 57 characters)',
    },
    models: MODELS,
    tools: stringList('a list of MCP server names (or one string)'),
    toolsAllowed: toolGlobs('this agent may call'),
    toolsDenied: toolGlobs('this agent may not call (a match wins over toolsAllowed)'),
    // The whole answer, cached for this long (the grammar is checked by `parseTtl` in definition.ts).
    cache: { type: ['integer', 'string'], 'x-expects': TTL_ALLOWED },
    agents: stringList('a list of sub-agent file paths (or one string)'),
    ...ORCHESTRATION_PROPERTIES,
    ...GUARDRAIL_PROPERTIES,
    ...SETTINGS_PROPERTIES,
    input: {
      type: 'object',
      properties: {
        format: { enum: [...INPUT_FORMATS], 'x-expects': `one of ${INPUT_FORMATS.join(', ')}` },
        schema: SCHEMA_OBJECT,
        schemaRef: { type: 'string', minLength: 1, 'x-expects': 'a path to a JSON Schema file' },
      },
      required: ['format'],
      additionalProperties: false,
      'x-expects': 'a format (text, json) or an object { format, schema | schemaRef }',
    },
    output: {
      type: 'object',
      properties: {
        format: { enum: [...OUTPUT_FORMATS], 'x-expects': `one of ${OUTPUT_FORMATS.join(', ')}` },
        schema: SCHEMA_OBJECT,
        schemaRef: { type: 'string', minLength: 1, 'x-expects': 'a path to a JSON Schema file' },
      },
      required: ['format'],
      additionalProperties: false,
      'x-expects': 'a format or an object { format, schema | schemaRef }',
    },
  },
  additionalProperties: false,
};

/** Settings given on the command line (`--override`): the frontmatter's settings only. */
export const SETTINGS_SCHEMA: Schema = {
  type: 'object',
  properties: SETTINGS_PROPERTIES,
  additionalProperties: false,
};

export const FRONTMATTER_KEYS = Object.keys(FRONTMATTER_SCHEMA.properties as object);

/** The config's `defaults`: the session settings plus runtime-wide ones. */
export const DEFAULTS_SCHEMA: Schema = {
  type: 'object',
  properties: {
    ...SETTINGS_PROPERTIES,
    models: MODELS,
    maxSubAgentDepth: positiveInteger('a positive integer (levels of sub-agents)'),
    maxConcurrentSubAgents: positiveInteger('a positive integer (sub-agents running at once, per level)'),
  },
  additionalProperties: false,
  'x-expects': 'an object of default settings',
};

/**
 * Expands the shorthands before validation: a string for a list (`models: a/b, c/d`), an
 * effort for `reasoning`, a boolean for `toolOutput`, a format for `input` / `output`.
 */
export function normaliseShorthands(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...data };
  for (const key of ['models', 'tools', 'agents', 'toolsAllowed', 'toolsDenied'])
    if (key in out) out[key] = listShorthand(out[key]);
  if (typeof out.reasoning === 'string') out.reasoning = { effort: out.reasoning };
  if (typeof out.toolOutput === 'boolean') out.toolOutput = { enabled: out.toolOutput };
  const toolOutput = out.toolOutput as Record<string, unknown> | undefined;
  if (typeof toolOutput === 'object' && toolOutput !== null && 'models' in toolOutput)
    out.toolOutput = { ...toolOutput, models: listShorthand(toolOutput.models) };
  for (const key of ['input', 'output']) if (typeof out[key] === 'string') out[key] = { format: out[key] };
  normaliseOrchestration(out);
  normaliseGuardrailForms(out);
  return out;
}
