import { ConfigError, type ModelTarget, type RunChildSession } from '@agent/protocol';
import { heuristicTokens, isPositiveInteger, isRecord } from '@agent/protocol/util';
import type { CreateReadGrepTools } from './types.js';

/** Settings of the tool-output module (`toolOutput` in a session config). */
export interface ToolOutputOptions {
  /** False turns the module off: results are kept as they are (default true). */
  enabled?: boolean;
  /** Parent of the per-session directories `ai-agent-<session id>` (default `os.tmpdir()`). */
  storeDir?: string;
  /** `auto` uses full-chunked when the output fits in this many chunks (default 1: one call, no reduce). */
  maxChunks?: number;
  /** Overlap between consecutive chunks, percent of a chunk (default 10, 0-50). */
  overlapPercent?: number;
  /** `auto` uses full-chunked when the average line is longer than this many bytes (default 1000). */
  avgLineBytesThreshold?: number;
  /** Models for extraction calls, tried in order (default the session's targets). */
  models?: readonly ModelTarget[];
  /** Tools of the read-grep child; without it read-grep cannot run and falls back to truncate. */
  createReadGrepTools?: CreateReadGrepTools;
  /** Runs the read-grep child session (the core passes its `runAgent`). */
  runChildSession?: RunChildSession;
  /** Budget of the truncate fallback, bytes of the output shown (default 12288). */
  truncateBytes?: number;
  /** Turn limit of the read-grep child (default 6). */
  readGrepMaxTurns?: number;
  /** Map calls running at once (default 2). */
  mapConcurrency?: number;
  /** Output tokens reserved for (and allowed to) each extraction call (default the session's maxOutputTokens, else 4096). */
  extractionOutputTokens?: number;
  /** Dotted agent path of the session, for logs and accounting (the core sets it). */
  agentPath?: string;
  /** Token estimate of prompt text (default about 4 characters a token). */
  estimateTokens?: (text: string) => number;
  /** Clock, replaceable in tests. */
  now?: () => number;
}

export const DEFAULT_MAX_CHUNKS = 1;
export const DEFAULT_OVERLAP_PERCENT = 10;
export const DEFAULT_AVG_LINE_BYTES_THRESHOLD = 1000;
export const DEFAULT_TRUNCATE_BYTES = 12_288;
export const DEFAULT_READ_GREP_MAX_TURNS = 6;
export const DEFAULT_MAP_CONCURRENCY = 2;
export const DEFAULT_EXTRACTION_OUTPUT_TOKENS = 4096;
export const MAX_OVERLAP_PERCENT = 50;

const POSITIVE_INTEGER_KEYS = [
  'maxChunks',
  'avgLineBytesThreshold',
  'truncateBytes',
  'readGrepMaxTurns',
  'mapConcurrency',
  'extractionOutputTokens',
] as const;

const FUNCTION_KEYS = ['createReadGrepTools', 'runChildSession', 'estimateTokens', 'now'] as const;

function problem(field: string, value: unknown, allowed: string, message?: string): ConfigError {
  return new ConfigError({
    field: `toolOutput.${field}`,
    value,
    allowed,
    ...(message === undefined ? {} : { message }),
  });
}

function modelProblems(models: unknown): ConfigError[] {
  if (models === undefined) return [];
  if (!Array.isArray(models) || models.length === 0) {
    return [problem('models', models, 'a list of at least one model target')];
  }
  const problems: ConfigError[] = [];
  models.forEach((target: unknown, index) => {
    const client = (target as { client?: { stream?: unknown } } | null)?.client;
    if (typeof client?.stream !== 'function')
      problems.push(problem(`models[${index}].client`, client, 'a ModelClient with a stream() method'));
  });
  return problems;
}

/** Every problem with the settings, each naming the setting, the value and what is allowed. */
export function toolOutputOptionProblems(options: unknown): ConfigError[] {
  if (!isRecord(options)) {
    return [new ConfigError({ field: 'toolOutput', value: options, allowed: 'an object or a hook factory' })];
  }
  const o = options;
  const problems: ConfigError[] = [];
  if (o.enabled !== undefined && typeof o.enabled !== 'boolean')
    problems.push(problem('enabled', o.enabled, 'true or false'));
  if (o.storeDir !== undefined && (typeof o.storeDir !== 'string' || o.storeDir.length === 0))
    problems.push(problem('storeDir', o.storeDir, 'a non-empty directory path'));
  for (const key of POSITIVE_INTEGER_KEYS) {
    if (o[key] !== undefined && !isPositiveInteger(o[key]))
      problems.push(problem(key, o[key], 'a positive integer'));
  }
  const overlap = o.overlapPercent;
  if (
    overlap !== undefined &&
    (typeof overlap !== 'number' || !Number.isFinite(overlap) || overlap < 0 || overlap > MAX_OVERLAP_PERCENT)
  ) {
    problems.push(problem('overlapPercent', overlap, `a number from 0 to ${MAX_OVERLAP_PERCENT}`));
  }
  problems.push(...modelProblems(o.models));
  for (const key of FUNCTION_KEYS) {
    if (o[key] !== undefined && typeof o[key] !== 'function')
      problems.push(problem(key, o[key], 'a function'));
  }
  return problems;
}

/** Settings with every default filled in. */
export interface ResolvedOptions {
  storeDir: string | undefined;
  maxChunks: number;
  overlapPercent: number;
  avgLineBytesThreshold: number;
  models: readonly ModelTarget[] | undefined;
  createReadGrepTools: CreateReadGrepTools | undefined;
  runChildSession: RunChildSession | undefined;
  truncateBytes: number;
  readGrepMaxTurns: number;
  mapConcurrency: number;
  extractionOutputTokens: number | undefined;
  agentPath: string | undefined;
  estimateTokens: (text: string) => number;
  now: () => number;
}

export function resolveOptions(options: ToolOutputOptions): ResolvedOptions {
  const problems = toolOutputOptionProblems(options);
  if (problems.length > 0) throw ConfigError.of(problems, 'invalid toolOutput settings');
  return {
    storeDir: options.storeDir,
    maxChunks: options.maxChunks ?? DEFAULT_MAX_CHUNKS,
    overlapPercent: options.overlapPercent ?? DEFAULT_OVERLAP_PERCENT,
    avgLineBytesThreshold: options.avgLineBytesThreshold ?? DEFAULT_AVG_LINE_BYTES_THRESHOLD,
    models: options.models,
    createReadGrepTools: options.createReadGrepTools,
    runChildSession: options.runChildSession,
    truncateBytes: options.truncateBytes ?? DEFAULT_TRUNCATE_BYTES,
    readGrepMaxTurns: options.readGrepMaxTurns ?? DEFAULT_READ_GREP_MAX_TURNS,
    mapConcurrency: options.mapConcurrency ?? DEFAULT_MAP_CONCURRENCY,
    extractionOutputTokens: options.extractionOutputTokens,
    agentPath: options.agentPath,
    estimateTokens: options.estimateTokens ?? heuristicTokens,
    now: options.now ?? Date.now,
  };
}
