import type { ModelTarget, ToolExecuteOptions, ToolOutputHookContext, ToolResult } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { type ExtractionSettings, planChunkBudget, runFullChunked } from './full-chunked.js';
import type { StoredOutput } from './handles.js';
import { failureMessage, headerHandle, quoteForMessage, successMessage } from './messages.js';
import { type CallReporting, StrategyError } from './model-call.js';
import { DEFAULT_EXTRACTION_OUTPUT_TOKENS, type ResolvedOptions } from './options.js';
import { runReadGrep } from './read-grep.js';
import { route } from './routing.js';
import type { ToolOutputStore } from './store.js';
import { readToolOutputArguments, type ToolOutputArguments } from './tool-output-tool.js';
import { fileSource, truncateOutput } from './truncate.js';
import type { ExtractionMode, ExtractionStrategy } from './types.js';

/** A strategy gets this share of the tool timeout; the rest is left for the truncate fallback. */
const STRATEGY_TIME_SHARE = 0.85;
/** Tool name shown when the handle is unknown. */
const UNKNOWN_TOOL = 'unknown';

export interface ExtractorDeps {
  store: ToolOutputStore;
  options: ResolvedOptions;
  context: Pick<ToolOutputHookContext, 'targets' | 'nonce' | 'maxOutputTokens' | 'contextWindow'>;
  reporting: CallReporting;
}

function failed(toolName: string, handle: string, mode: ExtractionMode, error: string): ToolResult {
  return { ok: true, isError: true, text: failureMessage(toolName, handle, mode, error) };
}

/** The session directory's absolute path never reaches the model: it is named by what the tools call it. */
function redact(text: string, directory: string | undefined): string {
  return directory === undefined ? text : text.split(directory).join('<session directory>');
}

/** Why an unknown handle was refused, naming only what this session issued (the model saw those). */
function unknownHandleText(given: string, issued: readonly StoredOutput[]): string {
  const list =
    issued.length === 0
      ? 'no output has been stored in this session'
      : `the handles of this session are: ${issued
          .slice(-10)
          .map((r) => `"${r.handle}" (${r.toolName})`)
          .join(', ')}`;
  return `${quoteForMessage(given)} is not a handle issued in this session. Pass a handle exactly as given in a "Tool output is too large" message or a "[Context compacted]" summary of this conversation; ${list}.`;
}

/**
 * The extraction targets with the window they really have: the session's `contextWindow`
 * overrides its own targets' (as the context guard does), and is the window of an extraction
 * model (`toolOutput.models`) that declares none. Chunks, routing and the read-grep child all
 * read the window from here, so none of them assumes the 131,072-token default.
 */
export function extractionTargets(
  models: readonly ModelTarget[] | undefined,
  context: Pick<ToolOutputHookContext, 'targets' | 'contextWindow'>,
): readonly ModelTarget[] {
  const window = context.contextWindow;
  if (window === undefined) return models ?? context.targets;
  if (models === undefined) return context.targets.map((t) => ({ ...t, contextWindow: window }));
  return models.map((t) => (t.contextWindow === undefined ? { ...t, contextWindow: window } : t));
}

/**
 * Runs one `tool_output` call: checks the arguments and the handle, picks the strategy
 * (`auto` routes, or the model's `mode`), runs it, and falls back to truncate with a WARNING
 * when it cannot run. Answers in the exact success and failure formats.
 */
export async function executeToolOutput(
  deps: ExtractorDeps,
  args: Record<string, unknown>,
  exec: ToolExecuteOptions,
): Promise<ToolResult> {
  const { store, options, context, reporting } = deps;
  const parsed = readToolOutputArguments(args);
  const requestedMode: ExtractionMode =
    typeof args.mode === 'string' && ['full-chunked', 'read-grep', 'truncate'].includes(args.mode)
      ? (args.mode as ExtractionMode)
      : 'auto';
  if (typeof parsed === 'string') {
    const given = typeof args.handle === 'string' ? args.handle : '';
    const record = store.lookup(given);
    return failed(
      record?.toolName ?? UNKNOWN_TOOL,
      record?.handle ?? headerHandle(given),
      requestedMode,
      parsed,
    );
  }
  const record = store.lookup(parsed.handle);
  if (record === undefined) {
    return failed(
      UNKNOWN_TOOL,
      headerHandle(parsed.handle),
      parsed.mode,
      unknownHandleText(parsed.handle, store.handles.list()),
    );
  }
  const settings: ExtractionSettings = {
    targets: extractionTargets(options.models, context),
    nonce: context.nonce,
    overlapPercent: options.overlapPercent,
    outputTokens:
      options.extractionOutputTokens ?? context.maxOutputTokens ?? DEFAULT_EXTRACTION_OUTPUT_TOKENS,
    concurrency: options.mapConcurrency,
    estimateTokens: options.estimateTokens,
  };
  const { strategy, why } = chooseStrategy(record, parsed, settings, options);
  reporting.log({
    severity: 'VRB',
    direction: 'request',
    type: 'tool',
    remoteIdentifier: `agent:tool-output:${record.toolName}`,
    message: `tool_output ${record.handle}: strategy ${strategy} (${why})`,
    details: { handle: record.handle, mode: parsed.mode, strategy, reason: why },
  });
  if (strategy === 'truncate') {
    return truncated(deps, record, 'The truncate mode was requested: this is not an extraction.', exec);
  }
  return extract(deps, record, parsed.extract, { strategy, settings }, exec);
}

/** `auto` routes by the planned chunk count and the lines' length; otherwise the model's `mode`. */
function chooseStrategy(
  record: StoredOutput,
  parsed: ToolOutputArguments,
  settings: ExtractionSettings,
  options: ResolvedOptions,
): { strategy: ExtractionStrategy; why: string } {
  if (parsed.mode !== 'auto') return { strategy: parsed.mode, why: 'requested by the model' };
  const plan = planChunkBudget(record, parsed.extract, settings);
  const chosen = route({
    chunkCount: plan.count,
    maxChunks: options.maxChunks,
    avgLineBytes: record.avgLineBytes,
    avgLineBytesThreshold: options.avgLineBytesThreshold,
  });
  return { strategy: chosen.strategy, why: chosen.reason };
}

/**
 * Runs an extraction strategy within its share of the tool timeout; when it cannot run (an error,
 * the deadline) the answer is the truncated output with a WARNING saying why.
 */
async function extract(
  deps: ExtractorDeps,
  record: StoredOutput,
  request: string,
  how: { strategy: Exclude<ExtractionStrategy, 'truncate'>; settings: ExtractionSettings },
  exec: ToolExecuteOptions,
): Promise<ToolResult> {
  const { store, options, context, reporting } = deps;
  const { strategy, settings } = how;
  const deadline =
    exec.timeoutMs === undefined
      ? undefined
      : AbortSignal.timeout(Math.floor(exec.timeoutMs * STRATEGY_TIME_SHARE));
  const signal = deadline === undefined ? exec.signal : AbortSignal.any([exec.signal, deadline]);
  try {
    const result =
      strategy === 'full-chunked'
        ? await runFullChunked(store, record, request, settings, signal, reporting)
        : await runReadGrep(
            store,
            record,
            request,
            {
              targets: settings.targets,
              nonce: context.nonce,
              maxTurns: options.readGrepMaxTurns,
              runChildSession: options.runChildSession,
              createReadGrepTools: options.createReadGrepTools,
            },
            signal,
            reporting,
          );
    reporting.log({
      severity: 'VRB',
      direction: 'response',
      type: 'tool',
      remoteIdentifier: `agent:tool-output:${record.toolName}`,
      message: `tool_output ${record.handle}: ${strategy} ${result.found ? 'extracted' : 'found no relevant data'} (${result.text.length} characters)`,
      details: { handle: record.handle, strategy, found: result.found, characters: result.text.length },
    });
    return { ok: true, text: successMessage(record.toolName, record.handle, strategy, result.text) };
  } catch (error) {
    if (exec.signal.aborted)
      return { ok: false, error: { kind: 'aborted', message: 'the session was cancelled' } };
    const reason = redact(
      error instanceof StrategyError
        ? error.message
        : deadline?.aborted === true
          ? `it did not finish within ${Math.floor((exec.timeoutMs ?? 0) * STRATEGY_TIME_SHARE)} ms`
          : `unexpected error: ${errorMessage(error)}`,
      store.directory,
    );
    return fallBack(deps, record, { strategy, reason }, exec);
  }
}

/** A strategy that could not run: a WARNING, and the truncated output saying why. */
function fallBack(
  deps: ExtractorDeps,
  record: StoredOutput,
  failure: { strategy: ExtractionStrategy; reason: string },
  exec: ToolExecuteOptions,
): Promise<ToolResult> {
  const { strategy, reason } = failure;
  deps.reporting.log({
    severity: 'WRN',
    direction: 'response',
    type: 'tool',
    remoteIdentifier: `agent:tool-output:${record.toolName}`,
    message: `tool_output ${record.handle}: ${strategy} could not run (${reason}); falling back to truncate`,
    details: { handle: record.handle, strategy, fallback: 'truncate', reason },
  });
  return truncated(deps, record, `The ${strategy} extraction could not run: ${reason}.`, exec);
}

async function truncated(
  deps: ExtractorDeps,
  record: StoredOutput,
  why: string,
  exec: ToolExecuteOptions,
): Promise<ToolResult> {
  try {
    const file = await deps.store.open(record);
    try {
      const text = await truncateOutput(
        fileSource(file, record.bytes),
        record,
        deps.options.truncateBytes,
        why,
      );
      return { ok: true, text: successMessage(record.toolName, record.handle, 'truncate', text) };
    } finally {
      await file.close();
    }
  } catch (error) {
    if (exec.signal.aborted)
      return { ok: false, error: { kind: 'aborted', message: 'the session was cancelled' } };
    return failed(
      record.toolName,
      record.handle,
      'truncate',
      `reading the stored output failed (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}
