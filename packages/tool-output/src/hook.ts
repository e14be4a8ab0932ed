import type {
  SavedToolOutput,
  SizingDecision,
  SizingRequest,
  StoredText,
  ToolOutputHook,
  ToolOutputHookContext,
  ToolOutputHookFactory,
} from '@agent/protocol';
import { TOOL_OUTPUT_TOOL, type ToolDefinition, type ToolProvider } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { MAX_SAVED_OUTPUT_BYTES, OutputCarry } from './carry.js';
import { executeToolOutput } from './extractor.js';
import { countLines } from './handles.js';
import { handleMessage } from './messages.js';
import type { CallReporting } from './model-call.js';
import { type ResolvedOptions, resolveOptions, type ToolOutputOptions } from './options.js';
import { ToolOutputStore } from './store.js';
import { StoreError } from './store-error.js';
import type { StoreFs } from './store-fs.js';
import { TOOL_OUTPUT_DEFINITION, TOOL_OUTPUT_PROVIDER_ID } from './tool-output-tool.js';
import { textSource, truncateOutput } from './truncate.js';
import type { StoreReason } from './types.js';

const KEEP: SizingDecision = { action: 'keep' };
/** Below this many bytes a truncated view is not worth showing. */
const MIN_FALLBACK_BYTES = 256;
/** A handle as long as a real one, to measure the handle message before storing. */
const HANDLE_SHAPE = '00000000-0000-4000-8000-000000000000';

/** The details every log line of one sizing decision carries. */
type SizingBase = { bytes: number; lines: number; tokens: number; tool: string; call_id: string };

/**
 * Builds the tool-output hook for sessions: pass it as `toolOutput` of a session config (the
 * core also accepts these options as a plain object and builds the hook itself). Throws
 * a `ConfigError` (code `configuration`) listing every setting that cannot work.
 */
export function createToolOutputHook(options: ToolOutputOptions = {}): ToolOutputHookFactory {
  const resolved = resolveOptions(options);
  if (options.enabled === false) {
    return () => ({ size: async () => KEEP, tools: () => undefined, dispose: async () => {} });
  }
  return (context) => new ToolOutputSession(context, resolved);
}

/** One session's hook: its store, the `tool_output` tool, and the oversize decision. */
export class ToolOutputSession implements ToolOutputHook {
  readonly store: ToolOutputStore;
  private readonly reporting: CallReporting;
  private readonly provider: ToolProvider;
  private offered: { definitions: readonly ToolDefinition[]; provider: ToolProvider } | undefined;
  private readonly carry: OutputCarry;
  private leftOut = 0;

  constructor(
    private readonly context: ToolOutputHookContext,
    private readonly options: ResolvedOptions,
    fs?: StoreFs,
  ) {
    this.store = new ToolOutputStore({
      sessionId: context.sessionId,
      ...(options.storeDir === undefined ? {} : { storeDir: options.storeDir }),
      ...(fs === undefined ? {} : { fs }),
      now: options.now,
    });
    this.reporting = {
      log: (entry) => context.log(entry),
      account: (entry) => context.account(entry),
      agentPath: options.agentPath,
      now: options.now,
    };
    this.carry = new OutputCarry(this.store);
    // Every session, storing or not, clears what ended processes left (at most once a minute).
    void this.store.sweep().then((removed) => this.reportSwept(removed));
    const deps = { store: this.store, options, context, reporting: this.reporting };
    this.provider = {
      id: TOOL_OUTPUT_PROVIDER_ID,
      kind: TOOL_OUTPUT_PROVIDER_ID,
      listTools: async () => (this.store.isEmpty ? [] : [TOOL_OUTPUT_DEFINITION]),
      execute: async (call, exec) => {
        if (call.name !== TOOL_OUTPUT_TOOL) {
          return {
            ok: false,
            error: { kind: 'unknown_tool', message: `this provider only runs ${TOOL_OUTPUT_TOOL}` },
          };
        }
        return executeToolOutput(deps, call.arguments, exec);
      },
    };
  }

  tools() {
    if (this.store.isEmpty || this.store.isDisposed) return undefined;
    // One object for the hook's life: the session keeps its tool list while this stays the same.
    this.offered ??= { definitions: [TOOL_OUTPUT_DEFINITION], provider: this.provider };
    return this.offered;
  }

  /**
   * Stores a text the session moves out of the context (a compaction's transcript) under a fresh
   * handle, so `tool_output` extracts from it like from a stored tool output. Rejects with a
   * `StoreError` when the session is ending (disposed) or `signal` is aborted before the write.
   */
  async storeText(output: StoredText, signal: AbortSignal): Promise<string> {
    const what = `${output.toolName} ${output.argumentsJson}`;
    if (signal.aborted) throw new StoreError(`storing ${what} was aborted (the session is stopping)`);
    if (this.store.isDisposed) {
      throw new StoreError(
        `cannot store ${what}: the tool-output store was released (the session is ending)`,
      );
    }
    const bytes = Buffer.byteLength(output.text);
    const lines = countLines(output.text);
    const record = await this.store.put(
      { toolName: output.toolName, argumentsJson: output.argumentsJson, bytes, lines, tokens: output.tokens },
      output.text,
    );
    this.context.log({
      severity: 'VRB',
      direction: 'response',
      type: 'tool',
      remoteIdentifier: `agent:tool-output:${output.toolName}`,
      message: `stored ${what} behind handle ${record.handle}: ${bytes} bytes, ${lines} lines, ${output.tokens} tokens`,
      details: { handle: record.handle, tool: output.toolName, bytes, lines, tokens: output.tokens },
    });
    return record.handle;
  }

  /** The stored outputs for a snapshot (bounded: `MAX_SAVED_OUTPUT_BYTES`; compaction transcripts kept first, then the newest). */
  async saveOutputs(): Promise<SavedToolOutput[]> {
    const before = this.leftOut;
    const { outputs, left } = await this.carry.save();
    this.leftOut = left;
    if (left > before) {
      this.context.log({
        severity: 'WRN',
        direction: 'response',
        type: 'tool',
        remoteIdentifier: 'agent:tool-output',
        message: `${left} stored output${left === 1 ? ' is' : 's are'} left out of the snapshot (over ${MAX_SAVED_OUTPUT_BYTES} bytes with the ones kept: compaction transcripts first, then the newest): after a resume ${left === 1 ? 'its handle does' : 'their handles do'} not read`,
      });
    }
    return outputs;
  }

  /** Writes a snapshot's stored outputs back under their handles (a resumed session). */
  async restoreOutputs(outputs: readonly SavedToolOutput[]): Promise<void> {
    const { restored, skipped } = await this.carry.restore(outputs);
    this.context.log({
      severity: skipped > 0 ? 'WRN' : 'VRB',
      direction: 'response',
      type: 'tool',
      remoteIdentifier: 'agent:tool-output',
      message: `restored ${restored} stored output${restored === 1 ? '' : 's'} from the snapshot${skipped > 0 ? `; ${skipped} could not be restored` : ''}`,
    });
  }

  async dispose(): Promise<void> {
    const hadDirectory = this.store.directory !== undefined;
    await this.store.dispose();
    if (hadDirectory) {
      this.context.log({
        severity: 'VRB',
        direction: 'response',
        type: 'tool',
        remoteIdentifier: 'agent:tool-output',
        message: `tool-output store removed (${this.store.handles.size} stored output${this.store.handles.size === 1 ? '' : 's'})`,
      });
    }
  }

  private reportSwept(removed: readonly string[]): void {
    if (removed.length === 0) return;
    this.context.log({
      severity: 'VRB',
      direction: 'response',
      type: 'tool',
      remoteIdentifier: 'agent:tool-output',
      message: `removed ${removed.length} tool-output store director${removed.length === 1 ? 'y' : 'ies'} of ended processes: ${removed.slice(0, 5).join(', ')}${removed.length > 5 ? ', ...' : ''}`,
    });
  }

  /**
   * Stores an oversized result and answers with the handle message. Reasons: `size_cap` (over
   * `toolResponseMaxBytes`), `token_budget` (within the cap but over the context left), and
   * `reserve_failed` (no handle could be reserved: the context cannot hold even the handle
   * message, so the result is kept for the context guard to drop; or the store write failed,
   * so a truncated view with a WARNING replaces it). `tool_output` answers are never stored.
   */
  async size(request: SizingRequest, signal: AbortSignal): Promise<SizingDecision> {
    if (request.toolName === TOOL_OUTPUT_TOOL || signal.aborted) return KEEP;
    const lines = countLines(request.text);
    const tokens = request.estimatedTokens;
    const reason: StoreReason = request.overSizeCap ? 'size_cap' : 'token_budget';
    const base = { bytes: request.bytes, lines, tokens, tool: request.toolName, call_id: request.callId };
    const needed = this.options.estimateTokens(handleMessage(request.bytes, lines, tokens, HANDLE_SHAPE));
    if (needed > request.remainingTokens) {
      this.warn(
        request,
        { ...base, handle: 'none', reason: 'reserve_failed', wanted: reason },
        `not stored: the context has ${request.remainingTokens} tokens left, the handle message needs ${needed}`,
      );
      return KEEP;
    }
    try {
      const record = await this.store.put(
        {
          toolName: request.toolName,
          argumentsJson: request.argumentsJson,
          bytes: request.bytes,
          lines,
          tokens,
        },
        request.text,
      );
      const details = { ...base, handle: record.handle, reason };
      this.warn(request, details, `stored behind handle ${record.handle}`);
      return { action: 'replace', text: handleMessage(request.bytes, lines, tokens, record.handle), details };
    } catch (error) {
      return this.truncatedInstead(request, base, reason, needed, error);
    }
  }

  /**
   * Storing failed: a truncated view (with a WARNING) replaces the result when the context left
   * after the handle message's share holds a useful one; otherwise the result is kept.
   */
  private async truncatedInstead(
    request: SizingRequest,
    base: SizingBase,
    wanted: StoreReason,
    needed: number,
    error: unknown,
  ): Promise<SizingDecision> {
    const why = (error as NodeJS.ErrnoException).code ?? errorMessage(error);
    const details = {
      ...base,
      handle: 'none',
      reason: 'reserve_failed' as const,
      wanted,
      error: why,
    };
    const bytesPerToken = base.tokens > 0 ? request.bytes / base.tokens : 4;
    const budget = Math.min(
      this.options.truncateBytes,
      Math.floor((request.remainingTokens - needed) * bytesPerToken * 0.8),
    );
    if (budget < MIN_FALLBACK_BYTES) {
      this.warn(
        request,
        details,
        `storing failed (${why}) and too little context is left for a truncated view`,
      );
      return KEEP;
    }
    this.warn(request, details, `storing failed (${why}); a truncated view replaces the output`);
    const text = await truncateOutput(
      textSource(request.text),
      { bytes: request.bytes, lines: base.lines },
      budget,
      `The output (${request.bytes} bytes) was too large and could not be stored for extraction (${why}).`,
    );
    return { action: 'replace', text, details };
  }

  private warn(request: SizingRequest, details: Record<string, string | number>, what: string): void {
    this.context.log({
      severity: 'WRN',
      direction: 'response',
      type: 'tool',
      remoteIdentifier: `agent:tool-output:${request.toolName}`,
      message: `tool output of ${request.toolName} is too large (${details.reason}): ${request.bytes} bytes, ${details.lines} lines, ${details.tokens} tokens; ${what}`,
      details,
    });
  }
}
