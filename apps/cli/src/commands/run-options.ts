import { readFileSync } from 'node:fs';
import { isOutputFormat, type JsonSchema, OUTPUT_FORMATS, type OutputFormat } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { usageError } from '../cli-error.js';

/** Options of `agent run` as commander parses them. */
export interface RunCliOptions {
  model?: string[];
  format?: string;
  schema?: string;
  maxTurns?: string;
  config?: string;
  verbose?: boolean;
  traceLlm?: boolean;
  traceMcp?: boolean;
  json?: boolean;
  accounting?: string;
  sessionId?: string;
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

const MODEL_REF = /^[^/\s]+\/\S+$/;

export function parseModels(values: readonly string[]): string[] {
  for (const value of values) {
    if (!MODEL_REF.test(value)) {
      throw usageError(`--model: '${value}' is not provider/model (for example openai/gpt-4o-mini)`);
    }
  }
  return [...values];
}

/** Reads `--schema FILE`: a JSON object (a JSON Schema). */
export function readSchemaFile(path: string): JsonSchema {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw usageError(`--schema: cannot read ${path}: ${errorMessage(error)}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw usageError(`--schema: ${path} is not valid JSON: ${errorMessage(error)}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw usageError(`--schema: ${path} must hold a JSON object (a JSON Schema), not ${describe(parsed)}`);
  }
  return parsed as JsonSchema;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** What the run options say about the run itself (not about the terminal). */
export interface ParsedRunOptions {
  models?: string[];
  format?: OutputFormat;
  schema?: JsonSchema;
  maxTurns?: number;
  configPath?: string;
  traceLlm: boolean;
  traceMcp: boolean;
}

export function parseRunOptions(options: RunCliOptions): ParsedRunOptions {
  const parsed: ParsedRunOptions = {
    traceLlm: options.traceLlm === true,
    traceMcp: options.traceMcp === true,
  };
  if (options.model !== undefined && options.model.length > 0) parsed.models = parseModels(options.model);
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
  return parsed;
}
