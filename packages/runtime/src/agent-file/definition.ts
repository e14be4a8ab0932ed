import { basename, dirname, extname, resolve } from 'node:path';
import type { JsonSchema, OutputFormat, ToolPolicy } from '@agent/protocol';
import { checkSchema } from '@agent/schema';
import { displayPath, type Problem, problem } from '../errors.js';
import { readRegularFile } from '../files/read-regular-file.js';
import type { GuardrailConfig } from '../guardrails/config.js';
import { readGuardrails } from '../guardrails/read.js';
import { type AgentOrchestration, readOrchestration } from '../orchestration/frontmatter.js';
import { normaliseFrontmatterForms } from './ai-agent-forms.js';
import { coreSettingProblems } from './core-settings.js';
import { type FileRef, fileRefs } from './file-ref.js';
import { expandIncludes, MAX_INCLUDED_BYTES } from './includes.js';
import { normaliseShorthands } from './keys.js';
import { parseAgentFile } from './parse.js';
import type { ReferenceScope } from './reference-scope.js';
import { readReferencedFile } from './referenced-file.js';
import { readSchemaFile } from './schema-file.js';
import { type AgentSettings, pickSettings } from './settings.js';
import { readTtlSetting } from './ttl-setting.js';
import { frontmatterProblems } from './validate.js';

/** A `provider/model` reference as written, with its line. */
export interface ModelRef {
  spec: string;
  provider: string;
  model: string;
  line?: number;
}

export interface NamedRef {
  name: string;
  line?: number;
}

export type { FileRef } from './file-ref.js';

/** One loaded agent file: everything the frontmatter said, checked, with lines for later checks. */
export interface AgentDefinition {
  path: string;
  file: string;
  dir: string;
  toolName: string;
  description?: string;
  usage?: string;
  models: ModelRef[];
  tools: NamedRef[];
  /** `toolsAllowed` / `toolsDenied`: globs over the names of the tools this agent is offered. */
  toolFilter?: { allowed?: string[]; denied?: string[] };
  agents: FileRef[];
  settings: AgentSettings;
  /** `toolOutput.models`, checked like `models` (the extraction calls of stored tool outputs). */
  toolOutputModels?: ModelRef[];
  input: { format: 'text' | 'json'; schema?: JsonSchema };
  /** `declared` is false when the file says nothing about its output (markdown by default). */
  output: { format: OutputFormat; schema?: JsonSchema; declared: boolean };
  /** The prompt body with includes expanded (variables are filled in at run time). */
  prompt: string;
  /** Advisors, router destinations and handoff, when the file names any (`docs/orchestration.md`). */
  orchestration?: AgentOrchestration;
  /** `guardrails:`: checks on the prompt, the report and tool calls (built per session). */
  guardrails?: GuardrailConfig[];
  /** `toolPolicy:`: passed to the session as it is written (docs/agent-files.md). */
  toolPolicy?: ToolPolicy;
  /** `cache`: how long the whole answer is cached, ms (0: not cached). */
  cacheTtlMs: number;
  /** Whether the file writes `cache` (ai-agent's `--cache` fills it in for a sub-agent only when not). */
  cacheWritten: boolean;
  /** What `validate` reports without refusing the file (unknown prompt variables). */
  warnings: Problem[];
}

/** Internal tool names a sub-agent may not take. */
export const RESERVED_TOOL_NAMES = ['final_report', 'task_status', 'batch'];

/** A provider-safe tool name from a file name: `code-review.ai` -> `code-review`. */
export function toolNameFromFile(path: string): string {
  const stem = basename(path, extname(path));
  const safe = stem
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^[^A-Za-z]+/, '')
    .slice(0, 57);
  return safe.length > 0 ? safe : 'agent';
}

export interface LoadOptions {
  cwd: string;
  /** Where the files it refers to may be (see `referenceScope`). */
  scope: ReferenceScope;
  /**
   * For a file another one names: the line naming it (the file must then be inside `scope`
   * too) and what it is to that file (`sub-agent file` by default, `advisor file`, ...).
   */
  from?: { file: string; line?: number; spec: string; what?: string };
}

/** Reads, parses and checks one agent file. Problems are collected; `definition` is set when usable. */
export function loadAgentDefinition(
  path: string,
  options: LoadOptions,
): { definition?: AgentDefinition; problems: Problem[] } {
  const { cwd, scope } = options;
  const file = displayPath(path, cwd);
  const read: Problem[] = [];
  const text = readAgentText(path, file, options, read);
  if (text === undefined) return { problems: read };
  const checked = checkedFrontmatter(path, file, text);
  if ('problems' in checked) return { problems: checked.problems };
  const { parsed, data, lineOf } = checked;
  const problems: Problem[] = [];
  const dir = dirname(path);

  const { models, toolOutputModels, tools, agents } = referencesOf(data, { file, dir, lineOf, problems });
  const orchestration = readOrchestration(data, { file, dir, lineOf, problems });
  const toolName = checkedToolName(data, path, { file, lineOf, problems });
  // `cache: 1h` in milliseconds; 0 when absent or `off`.
  const cacheTtlMs =
    data.cache === undefined
      ? 0
      : readTtlSetting(data.cache, 'cache', { file, line: lineOf('cache') }, problems);
  problems.push(...coreSettingProblems(data, { file, base: [], lineOf: (p) => lineOf(...p) }));
  const io = { file, dir, scope, lineOf, problems };
  const guarded = readGuardrails(data, io);
  const input = readIo('input', data.input as IoSpec | undefined, io);
  const output = readIo('output', data.output as IoSpec | undefined, io);
  const warnings: Problem[] = [];
  const prompt = expandIncludes(
    parsed.body,
    { path, firstLine: parsed.bodyLine, cwd, scope, budget: { remaining: MAX_INCLUDED_BYTES }, warnings },
    problems,
  );
  if (problems.length > 0) return { problems };
  const definition: AgentDefinition = {
    path,
    file,
    dir,
    toolName,
    ...(typeof data.description === 'string' ? { description: data.description } : {}),
    ...(typeof data.usage === 'string' ? { usage: data.usage } : {}),
    models,
    tools,
    ...toolFilterOf(data),
    agents,
    settings: pickSettings(data),
    ...(toolOutputModels.length === 0 ? {} : { toolOutputModels }),
    ...ioOf(input, output),
    prompt,
    ...(orchestration === undefined ? {} : { orchestration }),
    ...guarded,
    cacheTtlMs,
    cacheWritten: data.cache !== undefined,
    warnings,
  };
  return { definition, problems: [] };
}

/** What the file names, with their lines: `models` and `toolOutput.models` (each checked), `tools`, `agents`. */
function referencesOf(
  data: Record<string, unknown>,
  at: { file: string; dir: string; lineOf: LineOf; problems: Problem[] },
): Pick<AgentDefinition, 'models' | 'tools' | 'agents'> & { toolOutputModels: ModelRef[] } {
  const { file, lineOf, problems } = at;
  const models = ((data.models as string[] | undefined) ?? []).map((spec, index) =>
    parseModelRef(spec, file, lineOf('models', index), problems),
  );
  const toolOutputModels = (
    ((data.toolOutput as { models?: string[] } | undefined)?.models ?? []) as string[]
  ).map((spec, index) => parseModelRef(spec, file, lineOf('toolOutput', 'models', index), problems));
  const tools = ((data.tools as string[] | undefined) ?? []).map((name, index) => ({
    name,
    ...line(lineOf('tools', index)),
  }));
  const agents = fileRefs((data.agents as string[] | undefined) ?? [], at.dir, (index) =>
    lineOf('agents', index),
  );
  return { models, toolOutputModels, tools, agents };
}

/** The definition's `input` and `output`: text in and markdown out unless the file says otherwise. */
function ioOf(
  input: ReturnType<typeof readIo>,
  output: ReturnType<typeof readIo>,
): Pick<AgentDefinition, 'input' | 'output'> {
  return {
    input: {
      format: (input?.format as 'text' | 'json' | undefined) ?? 'text',
      ...(input?.schema === undefined ? {} : { schema: input.schema }),
    },
    output: {
      format: (output?.format as OutputFormat | undefined) ?? 'markdown',
      ...(output?.schema === undefined ? {} : { schema: output.schema }),
      declared: output !== undefined,
    },
  };
}

/** The agent file's text: a top agent's, or one a file references (its scope and size checked). */
function readAgentText(
  path: string,
  file: string,
  options: LoadOptions,
  read: Problem[],
): string | undefined {
  const { from, scope } = options;
  if (from === undefined) return readTopAgentFile(path, file, read);
  return readReferencedFile(
    path,
    from.what ?? 'sub-agent file',
    from.spec,
    { file: from.file, line: from.line },
    scope,
    read,
  );
}

type LineOf = (...keys: (string | number)[]) => number | undefined;

/** The frontmatter parsed, its forms and shorthands normalised and its shape checked. */
function checkedFrontmatter(
  path: string,
  file: string,
  text: string,
):
  | { parsed: ReturnType<typeof parseAgentFile>; data: Record<string, unknown>; lineOf: LineOf }
  | { problems: Problem[] } {
  const parsed = parseAgentFile(path, file, text);
  const problems = [...parsed.problems];
  if (problems.length > 0) return { problems };
  const lineOf: LineOf = (...keys) => parsed.locator?.lineOf(keys);
  const forms = { ...parsed.data };
  normaliseFrontmatterForms(forms, file, lineOf, problems);
  if (problems.length > 0) return { problems };
  const data = normaliseShorthands(forms);
  const shape = frontmatterProblems(data, file, parsed.locator);
  if (shape.length > 0) return { problems: shape };
  return { parsed, data, lineOf };
}

/** `toolName` (default: from the file's name); the internal tools' names are refused. */
function checkedToolName(
  data: Record<string, unknown>,
  path: string,
  at: { file: string; lineOf: LineOf; problems: Problem[] },
): string {
  const toolName = (data.toolName as string | undefined) ?? toolNameFromFile(path);
  if (RESERVED_TOOL_NAMES.includes(toolName)) {
    at.problems.push(
      problem(
        'configuration',
        at.file,
        at.lineOf('toolName'),
        `tool name \`${toolName}\` is reserved (agent__${toolName} is an internal tool); set another \`toolName\``,
      ),
    );
  }
  return toolName;
}

function toolFilterOf(data: Record<string, unknown>): Pick<AgentDefinition, 'toolFilter'> {
  const allowed = data.toolsAllowed as string[] | undefined;
  const denied = data.toolsDenied as string[] | undefined;
  if (allowed === undefined && denied === undefined) return {};
  return {
    toolFilter: {
      ...(allowed === undefined ? {} : { allowed }),
      ...(denied === undefined ? {} : { denied }),
    },
  };
}

function readTopAgentFile(path: string, file: string, problems: Problem[]): string | undefined {
  const read = readRegularFile(path);
  if (read.ok) return read.text;
  problems.push(
    read.reason === 'not_found'
      ? problem('not_found', file, undefined, 'agent file does not exist')
      : problem('configuration', file, undefined, `cannot read the agent file: ${read.detail}`),
  );
  return undefined;
}

function line(value: number | undefined): { line?: number } {
  return value === undefined ? {} : { line: value };
}

export function parseModelRef(
  spec: string,
  file: string,
  lineNo: number | undefined,
  problems: Problem[],
): ModelRef {
  const slash = spec.indexOf('/');
  const provider = slash === -1 ? '' : spec.slice(0, slash).trim();
  const model = slash === -1 ? '' : spec.slice(slash + 1).trim();
  if (provider === '' || model === '') {
    problems.push(
      problem(
        'configuration',
        file,
        lineNo,
        `model \`${spec}\` is not a \`provider/model\` reference (e.g. \`openai/gpt-4.1-mini\`, \`local/qwen3\`)`,
      ),
    );
  }
  return { spec, provider, model, ...line(lineNo) };
}

interface IoSpec {
  format: string;
  schema?: JsonSchema;
  schemaRef?: string;
}

function readIo(
  key: 'input' | 'output',
  spec: IoSpec | undefined,
  ctx: {
    file: string;
    dir: string;
    scope: ReferenceScope;
    lineOf: (...keys: (string | number)[]) => number | undefined;
    problems: Problem[];
  },
): { format: string; schema?: JsonSchema } | undefined {
  if (spec === undefined) return undefined;
  const { file, lineOf, problems } = ctx;
  if (spec.schema !== undefined && spec.schemaRef !== undefined) {
    problems.push(
      problem(
        'configuration',
        file,
        lineOf(key, 'schemaRef'),
        `\`${key}\` takes \`schema\` or \`schemaRef\`, not both`,
      ),
    );
    return undefined;
  }
  let schema = spec.schema;
  if (spec.schemaRef !== undefined)
    schema = readSchemaFile(resolve(ctx.dir, spec.schemaRef), spec.schemaRef, {
      ...ctx,
      line: lineOf(key, 'schemaRef'),
    });
  if (schema !== undefined && spec.format !== 'json') {
    problems.push(
      problem(
        'configuration',
        file,
        lineOf(key, 'format'),
        `\`${key}.format\` must be json to use a schema (got ${spec.format})`,
      ),
    );
  }
  if (schema !== undefined) {
    // Checked at load time, like every other key: a schema Ajv cannot use is the file's error.
    const fromFile = spec.schemaRef !== undefined;
    const check = checkSchema(schema, {
      label: fromFile ? `schema file \`${spec.schemaRef}\`` : `\`${key}.schema\``,
    });
    if (!check.ok) {
      problems.push(
        problem('configuration', file, lineOf(key, fromFile ? 'schemaRef' : 'schema'), check.message),
      );
    }
  }
  if (key === 'input' && spec.format === 'json' && schema === undefined && spec.schemaRef === undefined) {
    problems.push(
      problem(
        'configuration',
        file,
        lineOf(key, 'format'),
        '`input.format` json needs `input.schema` or `input.schemaRef`',
      ),
    );
  }
  return { format: spec.format, ...(schema === undefined ? {} : { schema }) };
}
