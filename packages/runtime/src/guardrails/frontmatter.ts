import {
  JSON_SCHEMA_ACTIONS,
  LENGTH_UNITS,
  PII_ACTIONS,
  PII_KINDS,
  REGEX_ACTIONS,
  WORDS_ACTIONS,
} from '@agent/guardrails';
import { GUARDRAIL_PHASES, GUARDRAIL_STAGES, TOOL_POLICY_DECISIONS } from '@agent/protocol';

// The `guardrails:` and `toolPolicy:` keys of an agent file (docs/agent-files.md), as JSON
// Schemas merged into the frontmatter schema. The shape common to every kind is checked here;
// which options each kind takes is checked by `readGuardrails` (kinds.ts), with the line.

type Schema = Record<string, unknown>;

/** The built-in kinds a `guardrails:` entry may name. */
export const GUARDRAIL_KINDS = ['regex', 'words', 'pii', 'max_length', 'json_schema', 'model'] as const;

export type GuardrailKind = (typeof GUARDRAIL_KINDS)[number];

/** The `action`s each kind takes (`@agent/guardrails`), the first its default. */
export const KIND_ACTIONS: Partial<Record<GuardrailKind, readonly string[]>> = {
  regex: REGEX_ACTIONS,
  words: WORDS_ACTIONS,
  pii: PII_ACTIONS,
  json_schema: JSON_SCHEMA_ACTIONS,
};

const ALL_ACTIONS = [...new Set(Object.values(KIND_ACTIONS).flat())];

const nonEmptyString = (what: string): Schema => ({ type: 'string', minLength: 1, 'x-expects': what });

const stringList = (what: string): Schema => ({
  type: 'array',
  minItems: 1,
  items: nonEmptyString('a non-empty string'),
  'x-expects': what,
});

const oneOf = (values: readonly string[]): Schema => ({
  enum: [...values],
  'x-expects': `one of ${values.join(', ')}`,
});

const GUARDRAIL_ENTRY: Schema = {
  type: 'object',
  properties: {
    name: {
      type: 'string',
      pattern: '^[A-Za-z0-9_.:-]{1,64}$',
      'x-expects': 'a name of 1-64 letters, digits, `_`, `.`, `:` or `-`',
    },
    on: oneOf(GUARDRAIL_STAGES),
    kind: oneOf(GUARDRAIL_KINDS),
    tools: stringList('a list of tool-name globs (or one string), for `on: tool`'),
    phases: {
      type: 'array',
      minItems: 1,
      items: oneOf(GUARDRAIL_PHASES),
      'x-expects': `a list of phases (${GUARDRAIL_PHASES.join(', ')}) of the guardrail's stage`,
    },
    parallel: { type: 'boolean', 'x-expects': 'true or false (for `on: input`)' },
    timeoutMs: {
      type: 'integer',
      minimum: 1,
      'x-expects': 'a positive number of milliseconds or a duration such as 500ms, 10s',
    },
    failOpen: { type: 'boolean', 'x-expects': 'true or false' },
    // regex
    pattern: nonEmptyString('a regular expression (RE2 syntax)'),
    flags: { enum: ['', 'i'], 'x-expects': 'i (ignore case) or nothing' },
    action: oneOf(ALL_ACTIONS),
    // words
    blocked: stringList('a list of words or phrases (or one string)'),
    required: stringList('a list of words or phrases (or one string)'),
    caseSensitive: { type: 'boolean', 'x-expects': 'true or false' },
    // pii
    detect: {
      type: 'array',
      minItems: 1,
      items: oneOf(PII_KINDS),
      'x-expects': `a list of detectors (or one string) among ${PII_KINDS.join(', ')}`,
    },
    // max_length
    max: { type: 'integer', minimum: 1, 'x-expects': 'a positive integer (characters)' },
    unit: oneOf(LENGTH_UNITS),
    // json_schema
    schema: { type: 'object', 'x-expects': 'a JSON Schema object' },
    schemaRef: nonEmptyString('a path to a JSON Schema file'),
    // model
    agent: nonEmptyString('a path to the judge agent file'),
  },
  required: ['name', 'on', 'kind'],
  additionalProperties: false,
  'x-expects': 'an object { name, on, kind, ... } (docs/agent-files.md#guardrails)',
};

const POLICY_RULE: Schema = {
  type: 'object',
  properties: {
    name: nonEmptyString('a name for the rule (shown in events and the record)'),
    tools: stringList('a list of tool-name globs (or one string)'),
    when: nonEmptyString('a condition on the arguments, such as amount > `100`'),
    decision: oneOf(TOOL_POLICY_DECISIONS),
    reason: nonEmptyString('a reason told to the model (deny) or the person (ask)'),
  },
  required: ['tools', 'decision'],
  additionalProperties: false,
  'x-expects': 'an object { name?, tools, when?, decision, reason? }',
};

/** JSON Schemas of the keys, merged into the frontmatter schema. */
export const GUARDRAIL_PROPERTIES: Record<string, Schema> = {
  guardrails: {
    type: 'array',
    items: GUARDRAIL_ENTRY,
    'x-expects': 'a list of guardrails { name, on, kind, ... }',
  },
  toolPolicy: {
    type: 'object',
    properties: {
      default: oneOf(TOOL_POLICY_DECISIONS),
      rules: { type: 'array', items: POLICY_RULE, 'x-expects': 'a list of rules { tools, when?, decision }' },
    },
    required: ['rules'],
    additionalProperties: false,
    'x-expects': 'an object { default?, rules: [{ name?, tools, when?, decision, reason? }] }',
  },
};
