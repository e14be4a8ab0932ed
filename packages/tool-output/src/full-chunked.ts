import {
  DEFAULT_CONTEXT_BUFFER,
  DEFAULT_CONTEXT_WINDOW,
  type ModelRequest,
  type ModelTarget,
} from '@agent/protocol';
import { alignChunks, alignWindow, readBytes } from './chunk-reader.js';
import { chunkCount, planChunks } from './chunking.js';
import type { StoredOutput } from './handles.js';
import { isNotFound, NO_DATA_MARKER, searchedLine } from './messages.js';
import { type CallReporting, callExtractionModel, StrategyError } from './model-call.js';
import { mapPrompt, mapUserMessage, REDUCE_USER_MESSAGE, reducePrompt, type SourceInfo } from './prompts.js';
import type { ToolOutputStore } from './store.js';

/** Tokens a message costs beyond its text (role, separators). */
const MESSAGE_FRAMING_TOKENS = 16;
/** Below this many tokens per chunk the extraction is not worth running. */
const MIN_CHUNK_TOKENS = 256;
/** Chunks are planned this much below the budget: line alignment may grow a chunk a little. */
const ALIGNMENT_MARGIN = 0.95;
const MAX_REDUCE_LEVELS = 4;

export interface ExtractionSettings {
  targets: readonly ModelTarget[];
  nonce: string;
  overlapPercent: number;
  /** Output tokens each call may use (and that the budget keeps free). */
  outputTokens: number;
  concurrency: number;
  estimateTokens: (text: string) => number;
}

export interface ChunkPlan {
  /** Tokens left for the chunk text in one map call. */
  budgetTokens: number;
  /** Largest chunk, bytes. */
  maxChunkBytes: number;
  /** Chunks needed (Infinity when none fits). */
  count: number;
}

/** Usable input tokens of the smallest extraction model: every chunk must fit every model. */
function usableWindow(targets: readonly ModelTarget[]): number {
  const windows = targets.map(
    (t) => (t.contextWindow ?? DEFAULT_CONTEXT_WINDOW) - (t.contextBuffer ?? DEFAULT_CONTEXT_BUFFER),
  );
  return windows.length === 0 ? 0 : Math.min(...windows);
}

/**
 * The chunk budget of a map call: context window - output tokens - prompt tokens, where the
 * prompt is the map system prompt with its placeholders filled (the extract included) plus the
 * chunk's framing. Bytes per token come from the session's estimate of the whole output.
 */
export function planChunkBudget(record: StoredOutput, extract: string, s: ExtractionSettings): ChunkPlan {
  const widest = 999_999;
  const prompt =
    mapPrompt({
      toolName: record.toolName,
      argumentsJson: record.argumentsJson,
      extract,
      nonce: s.nonce,
      bytes: record.bytes,
      lines: record.lines,
      tokens: record.tokens,
      chunkIndex: widest,
      chunkTotal: widest,
      overlapPercent: s.overlapPercent,
    }) + mapUserMessage(widest, widest, '');
  const promptTokens = s.estimateTokens(prompt) + 2 * MESSAGE_FRAMING_TOKENS;
  const budgetTokens = usableWindow(s.targets) - s.outputTokens - promptTokens;
  const bytesPerToken = record.tokens > 0 ? record.bytes / record.tokens : 4;
  const maxChunkBytes =
    budgetTokens < MIN_CHUNK_TOKENS ? 0 : Math.floor(budgetTokens * bytesPerToken * ALIGNMENT_MARGIN);
  return {
    budgetTokens,
    maxChunkBytes,
    count: chunkCount(record.bytes, maxChunkBytes, s.overlapPercent / 100),
  };
}

interface ChunkAnswer {
  index: number;
  text: string;
  found: boolean;
}

export interface FullChunkedResult {
  text: string;
  found: boolean;
  chunks: number;
}

function request(system: string, user: string, outputTokens: number): ModelRequest {
  return {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    maxOutputTokens: outputTokens,
    stream: true,
  };
}

/** Runs `task(0..count-1)` with at most `limit` at once; the first failure stops the rest. */
async function runLimited(
  count: number,
  limit: number,
  signal: AbortSignal,
  task: (index: number, signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const controller = new AbortController();
  const stop = () => controller.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < count) {
      const index = next++;
      try {
        await task(index, controller.signal);
      } catch (error) {
        failure ??= { error };
        controller.abort(error);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  } finally {
    signal.removeEventListener('abort', stop);
  }
  if (failure !== undefined) throw failure.error;
}

function description(answer: string): string {
  const rest = answer.trimStart().slice(NO_DATA_MARKER.length).trim();
  return rest.length > 300 ? `${rest.slice(0, 300)}…` : rest;
}

function chunkSection(answer: ChunkAnswer, total: number): string {
  if (answer.found) return `--- chunk ${answer.index} of ${total} ---\n${answer.text}`;
  return `--- chunk ${answer.index} of ${total}: ${NO_DATA_MARKER} ---\n${description(answer.text)}`;
}

function notFoundSummary(answers: readonly ChunkAnswer[], record: StoredOutput, extract: string): string {
  const shown = answers
    .slice(0, 20)
    .map((a) => `- chunk ${a.index}: ${description(a.text) || '(no description)'}`);
  if (answers.length > shown.length) shown.push(`- ... ${answers.length - shown.length} more chunks`);
  return [
    NO_DATA_MARKER,
    searchedLine(
      `all ${answers.length} chunks of the output (${record.bytes} bytes, ${record.lines} lines)`,
      extract,
    ),
    'What the chunks hold:',
    ...shown,
  ].join('\n');
}

/** What every call of one full-chunked extraction shares. */
interface ChunkedRun {
  record: StoredOutput;
  source: SourceInfo;
  s: ExtractionSettings;
  reporting: CallReporting;
}

/** The map call of chunk `index` (0-based) of `total`. */
async function mapChunk(
  run: ChunkedRun,
  chunk: string,
  index: number,
  total: number,
  signal: AbortSignal,
): Promise<ChunkAnswer> {
  const { record, s } = run;
  const system = mapPrompt({
    ...run.source,
    bytes: record.bytes,
    lines: record.lines,
    tokens: record.tokens,
    chunkIndex: index + 1,
    chunkTotal: total,
    overlapPercent: total > 1 ? s.overlapPercent : 0,
  });
  const answer = await callExtractionModel(
    s.targets,
    request(system, mapUserMessage(index + 1, total, chunk), s.outputTokens),
    s.nonce,
    total === 1 ? 'map' : `map ${index + 1}/${total}`,
    signal,
    run.reporting,
  );
  return { index: index + 1, text: answer.text, found: !isNotFound(answer.text) };
}

/** Cuts the stored output into line-aligned chunks and maps each, reading one chunk at a time from the file. */
async function mapChunks(
  store: ToolOutputStore,
  run: ChunkedRun,
  maxChunkBytes: number,
  signal: AbortSignal,
): Promise<ChunkAnswer[]> {
  const { record, s } = run;
  const file = await store.open(record);
  try {
    const planned = planChunks(record.bytes, maxChunkBytes, s.overlapPercent / 100);
    const ranges = await alignChunks(file, planned, record.bytes, alignWindow(maxChunkBytes));
    const total = ranges.length;
    const answers = new Array<ChunkAnswer>(total);
    await runLimited(total, s.concurrency, signal, async (index, callSignal) => {
      const range = ranges[index]!;
      const chunk = (await readBytes(file, range.start, range.end)).toString('utf8');
      answers[index] = await mapChunk(run, chunk, index, total, callSignal);
    });
    return answers;
  } finally {
    await file.close();
  }
}

/** The answer from the chunk answers: a single one as it is, a summary when none found anything, else the reduce. */
async function combineChunkAnswers(
  run: ChunkedRun,
  answers: readonly ChunkAnswer[],
  signal: AbortSignal,
): Promise<FullChunkedResult> {
  const { record } = run;
  const { extract } = run.source;
  const total = answers.length;
  if (total === 1) {
    const only = answers[0]!;
    return only.found
      ? { text: only.text, found: true, chunks: 1 }
      : {
          text: `${only.text}\n${searchedLine(`the whole output (${record.bytes} bytes, ${record.lines} lines)`, extract)}`,
          found: false,
          chunks: 1,
        };
  }
  if (answers.every((a) => !a.found))
    return { text: notFoundSummary(answers, record, extract), found: false, chunks: total };
  const sections = answers.map((a) => chunkSection(a, total));
  const reduced = await reduceSections(sections, run.source, run.s, signal, run.reporting, 0);
  if (!isNotFound(reduced)) return { text: reduced, found: true, chunks: total };
  return {
    text: `${reduced}\n${searchedLine(`all ${total} chunks of the output (${record.bytes} bytes, ${record.lines} lines)`, extract)}`,
    found: false,
    chunks: total,
  };
}

/**
 * The full-chunked strategy: the output is cut into equal overlapping chunks read one by one
 * from the file (never the whole output in memory), one map call per chunk, then one reduce
 * call over the chunk answers (none when there is a single chunk). Throws `StrategyError` when
 * it cannot run.
 */
export async function runFullChunked(
  store: ToolOutputStore,
  record: StoredOutput,
  extract: string,
  s: ExtractionSettings,
  signal: AbortSignal,
  reporting: CallReporting,
): Promise<FullChunkedResult> {
  const plan = planChunkBudget(record, extract, s);
  if (!Number.isFinite(plan.count)) {
    throw new StrategyError(
      `the extraction prompt leaves ${plan.budgetTokens} tokens for a chunk (at least ${MIN_CHUNK_TOKENS} are needed)`,
    );
  }
  const source: SourceInfo = {
    toolName: record.toolName,
    argumentsJson: record.argumentsJson,
    extract,
    nonce: s.nonce,
  };
  const run: ChunkedRun = { record, source, s, reporting };
  const answers = await mapChunks(store, run, plan.maxChunkBytes, signal);
  return combineChunkAnswers(run, answers, signal);
}

/** One reduce call when the chunk answers fit one prompt; otherwise reduce groups, then their results. */
async function reduceSections(
  sections: readonly string[],
  source: SourceInfo,
  s: ExtractionSettings,
  signal: AbortSignal,
  reporting: CallReporting,
  level: number,
): Promise<string> {
  const empty = s.estimateTokens(reducePrompt({ ...source, chunkOutputs: '' }) + REDUCE_USER_MESSAGE);
  const budget = usableWindow(s.targets) - s.outputTokens - empty - 2 * MESSAGE_FRAMING_TOKENS;
  const groups: string[][] = [];
  let used = Number.POSITIVE_INFINITY;
  for (const section of sections) {
    const cost = s.estimateTokens(section) + 2;
    if (used + cost > budget) {
      groups.push([]);
      used = 0;
    }
    groups.at(-1)!.push(section);
    used += cost;
  }
  if (groups.length > 1 && level >= MAX_REDUCE_LEVELS) {
    throw new StrategyError(`the chunk answers do not fit a reduce call after ${level} levels of reduction`);
  }
  const results: string[] = [];
  for (const [index, group] of groups.entries()) {
    const system = reducePrompt({ ...source, chunkOutputs: group.join('\n\n') });
    const label =
      groups.length === 1
        ? level === 0
          ? 'reduce'
          : `reduce level ${level + 1}`
        : `reduce ${index + 1}/${groups.length}`;
    const answer = await callExtractionModel(
      s.targets,
      request(system, REDUCE_USER_MESSAGE, s.outputTokens),
      s.nonce,
      label,
      signal,
      reporting,
    );
    results.push(answer.text);
  }
  if (results.length === 1) return results[0]!;
  const partials = results.map(
    (text, index) => `--- partial synthesis ${index + 1} of ${results.length} ---\n${text}`,
  );
  return reduceSections(partials, source, s, signal, reporting, level + 1);
}
