import type { ModelTarget } from '@agent/protocol';
import type { CreateReadGrepTools, RunChildSession } from './types.js';

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

/** Thrown by `createToolOutputHook` for settings that cannot work. */
export class ToolOutputConfigError extends Error {
  override readonly name = 'ToolOutputConfigError';
}

function isPositiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1;
}

/** Every problem with the settings, each saying what was wrong and what is allowed. */
export function toolOutputOptionProblems(options: unknown): string[] {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    return [`toolOutput must be an object or a hook factory, got ${JSON.stringify(options)}`];
  }
  const o = options as Record<string, unknown>;
  const problems: string[] = [];
  if (o.enabled !== undefined && typeof o.enabled !== 'boolean')
    problems.push(`toolOutput.enabled must be true or false, got ${JSON.stringify(o.enabled)}`);
  if (o.storeDir !== undefined && (typeof o.storeDir !== 'string' || o.storeDir.length === 0))
    problems.push(
      `toolOutput.storeDir must be a non-empty directory path, got ${JSON.stringify(o.storeDir)}`,
    );
  for (const key of [
    'maxChunks',
    'avgLineBytesThreshold',
    'truncateBytes',
    'readGrepMaxTurns',
    'mapConcurrency',
    'extractionOutputTokens',
  ]) {
    if (o[key] !== undefined && !isPositiveInteger(o[key]))
      problems.push(`toolOutput.${key} must be a positive integer, got ${JSON.stringify(o[key])}`);
  }
  const overlap = o.overlapPercent;
  if (
    overlap !== undefined &&
    (typeof overlap !== 'number' || !Number.isFinite(overlap) || overlap < 0 || overlap > MAX_OVERLAP_PERCENT)
  ) {
    problems.push(
      `toolOutput.overlapPercent must be a number from 0 to ${MAX_OVERLAP_PERCENT}, got ${JSON.stringify(overlap)}`,
    );
  }
  if (o.models !== undefined) {
    if (!Array.isArray(o.models) || o.models.length === 0) {
      problems.push('toolOutput.models must list at least one model target when given');
    } else {
      o.models.forEach((target: unknown, index) => {
        const client = (target as { client?: { stream?: unknown } } | null)?.client;
        if (typeof client?.stream !== 'function')
          problems.push(`toolOutput.models[${index}].client must be a ModelClient with a stream() method`);
      });
    }
  }
  for (const key of ['createReadGrepTools', 'runChildSession', 'estimateTokens', 'now']) {
    if (o[key] !== undefined && typeof o[key] !== 'function')
      problems.push(`toolOutput.${key} must be a function, got ${typeof o[key]}`);
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

export function charTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function resolveOptions(options: ToolOutputOptions): ResolvedOptions {
  const problems = toolOutputOptionProblems(options);
  if (problems.length > 0)
    throw new ToolOutputConfigError(`invalid toolOutput settings: ${problems.join('; ')}`);
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
    estimateTokens: options.estimateTokens ?? charTokens,
    now: options.now ?? Date.now,
  };
}
