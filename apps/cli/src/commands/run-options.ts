import { readFileSync } from 'node:fs';
import { isOutputFormat, type JsonSchema, OUTPUT_FORMATS, type OutputFormat } from '@agent/protocol';
import { DURATION_ALLOWED, errorMessage, parseDurationMs } from '@agent/protocol/util';
import { usageError } from '../cli-error.js';

/** Options of `agent run` as commander parses them. */
export interface RunCliOptions {
  model?: string[];
  /** ai-agent's `--models a,b`: the top agent's models only (a fallback chain, in order). */
  topModels?: string[];
  format?: string;
  schema?: string;
  maxTurns?: string;
  config?: string;
  verbose?: boolean;
  traceLlm?: boolean;
  traceMcp?: boolean;
  json?: boolean;
  accounting?: string;
  /** `--quiet`: no progress at all on stderr. */
  quiet?: boolean;
  /** `--progress`: a line per turn on stderr when it is not a terminal. */
  progress?: boolean;
  /** `--override key=value`, repeatable (every agent of the tree). */
  override?: string[];
  /** Per-setting values from flags such as ai-agent's `--temperature` (the top agent; sub-agents where silent). */
  settings?: Record<string, unknown>;
  sessionId?: string;
  /** `--conversation NAME`: earlier prompts and reports of this conversation come back as history. */
  conversation?: string;
  /** `--approval-timeout 30s`: how long the terminal's approval question waits for an answer. */
  approvalTimeout?: string;
}

/** Commander collector for repeatable options. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function parseFormat(value: string): OutputFormat {
  if (isOutputFormat(value)) return value;
  throw usageError(`--format: unknown format '${value}'; allowed: ${OUTPUT_FORMATS.join(', ')}`);
}

export function parseMaxTurns(value: string): number {
  const turns = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(turns) || turns < 1) {
    throw usageError(`--max-turns: '${value}' is not a whole number of at least 1`);
  }
  return turns;
}

/** The longest `--approval-timeout`: 7 days (a timer cannot wait much beyond 24 days). */
const MAX_APPROVAL_TIMEOUT_MS = 7 * 86_400_000;

export function parseApprovalTimeout(value: string): number {
  const ms = parseDurationMs(value);
  if (ms === undefined || ms < 1 || ms > MAX_APPROVAL_TIMEOUT_MS) {
    throw usageError(
      `--approval-timeout: '${value}' is not a duration from 1 ms to 7d; allowed: ${DURATION_ALLOWED}`,
    );
  }
  return ms;
}

const MODEL_REF = /^[^/\s]+\/\S+$/;

export function parseModels(values: readonly string[], flag = '--model'): string[] {
  for (const value of values) {
    if (!MODEL_REF.test(value)) {
      throw usageError(`${flag}: '${value}' is not provider/model (for example openai/gpt-4o-mini)`);
    }
  }
  return [...values];
}

/**
 * Reads `--schema`: inline JSON (`'{"type":"object"}'`), `@file.json`, or a file path; it
 * must be a JSON object (a JSON Schema).
 */
export function readSchemaFile(value: string): JsonSchema {
  const inline = value.trimStart().startsWith('{');
  const path = value.startsWith('@') ? value.slice(1) : value;
  let text = value;
  if (!inline) {
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw usageError(`--schema: cannot read ${path}: ${errorMessage(error)}`);
    }
  }
  const source = inline ? 'the inline schema' : path;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw usageError(`--schema: ${source} is not valid JSON: ${errorMessage(error)}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw usageError(`--schema: ${source} must hold a JSON object (a JSON Schema), not ${describe(parsed)}`);
  }
  return parsed as JsonSchema;
}

/** A flag's text as a setting value: `null`, `true` / `false`, a number, or the text. */
export function settingValue(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === 'null') return null;
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  return trimmed;
}

/** ai-agent's override keys this runtime cannot honour, with why (docs/migrating-from-ai-agent.md). */
const REFUSED_OVERRIDES: Record<string, string> = {
  tools: "an agent's MCP servers are what its file lists; edit the agent file",
  agents: "an agent's sub-agents are what its file lists; edit the agent file",
  'no-batch':
    'the batch tool cannot be turned off on its own here (it comes with agent__task_status); set `maxToolCallsPerTurn` to bound the calls of a turn',
  'no-progress': 'agent__task_status cannot be limited here; it is always offered with the batch tool',
  interleaved:
    'interleaved reasoning is a property of a model here: set `interleaved` on the model in .ai-agent.json (or `chatReasoningField` in agent.json)',
  mcpInitConcurrency: "an agent's MCP servers are always started at once here",
};

/**
 * `--override key=value`: settings for every agent; `models=a/b,c/d` replaces every agent's
 * models; `cache=1h` (the response cache TTL) and `stream=false` go to the runtime as they are.
 */
export function parseOverrides(values: readonly string[]): {
  settings: Record<string, unknown>;
  models?: string[];
} {
  const settings: Record<string, unknown> = {};
  let models: string[] | undefined;
  for (const value of values) {
    const at = value.indexOf('=');
    const key = at === -1 ? '' : value.slice(0, at).trim();
    if (key === '') throw usageError(`--override: '${value}' is not key=value (for example temperature=0.2)`);
    const text = value.slice(at + 1);
    const refused = REFUSED_OVERRIDES[key];
    if (refused !== undefined) throw usageError(`--override: \`${key}\` is not supported: ${refused}`);
    if (key === 'models') models = parseModels(modelList(text), '--override models');
    else settings[key] = settingValue(text);
  }
  return { settings, ...(models === undefined ? {} : { models }) };
}

/** `a/b, c/d` as a list (empty entries dropped). */
export function modelList(text: string): string[] {
  return text
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** What the run options say about the run itself (not about the terminal). */
export interface ParsedRunOptions {
  models?: string[];
  topModels?: string[];
  format?: OutputFormat;
  schema?: JsonSchema;
  maxTurns?: number;
  configPath?: string;
  overrides?: Record<string, unknown>;
  settings?: Record<string, unknown>;
  traceLlm: boolean;
  traceMcp: boolean;
  /** How long a terminal approval question waits; no answer by then denies the call. */
  approvalTimeoutMs?: number;
}

export function parseRunOptions(options: RunCliOptions): ParsedRunOptions {
  const parsed: ParsedRunOptions = {
    traceLlm: options.traceLlm === true,
    traceMcp: options.traceMcp === true,
  };
  if (options.model !== undefined && options.model.length > 0) parsed.models = parseModels(options.model);
  if (options.topModels !== undefined && options.topModels.length > 0)
    parsed.topModels = parseModels(options.topModels, '--models');
  if (options.format !== undefined) parsed.format = parseFormat(options.format);
  if (options.schema !== undefined) {
    if (parsed.format !== undefined && parsed.format !== 'json') {
      throw usageError(`--schema applies to the json format only, not to --format ${parsed.format}`);
    }
    parsed.schema = readSchemaFile(options.schema);
    parsed.format = 'json';
  }
  if (options.maxTurns !== undefined) parsed.maxTurns = parseMaxTurns(options.maxTurns);
  if (options.config !== undefined) parsed.configPath = options.config;
  if (options.approvalTimeout !== undefined)
    parsed.approvalTimeoutMs = parseApprovalTimeout(options.approvalTimeout);
  if (options.override !== undefined && options.override.length > 0) {
    const { settings, models } = parseOverrides(options.override);
    if (Object.keys(settings).length > 0) parsed.overrides = settings;
    if (models !== undefined) parsed.models = models;
  }
  if (options.settings !== undefined && Object.keys(options.settings).length > 0)
    parsed.settings = options.settings;
  return parsed;
}
