import type { ModelTarget, ToolCall, ToolOutputHook } from '@agent/protocol';
import type { ContextGuard } from '../context/context-guard.js';
import { guardDetails } from '../context/guard-log.js';
import type { TokenEstimator } from '../context/token-estimator.js';
import type { SessionRecorder } from '../observe/recorder.js';
import { failedText } from './call-runner.js';

export const CONTEXT_BUDGET_EXCEEDED = failedText('context window budget exceeded');

export interface ResultSizerOptions {
  hook: ToolOutputHook | undefined;
  estimator: TokenEstimator;
  guard: ContextGuard;
  recorder: SessionRecorder;
  toolResponseMaxBytes: number;
  /** The target whose window the next request is measured against. */
  target: () => ModelTarget | undefined;
  signal: AbortSignal;
  /**
   * Set when the session compacts: makes room for a result that does not fit by compacting the
   * conversation inside the turn (docs/compaction.md). `pendingRaw`: raw tokens of the results
   * admitted this turn; `overflow`: tokens the result is over the limit. True when one ran.
   */
  makeRoom?: (pendingRaw: number, overflow: number) => Promise<boolean>;
}

/** A result as it joins the conversation, and whether the context budget refused it. */
export interface Admitted {
  text: string;
  contextExceeded: boolean;
  /** Set when refused: the projection, for the call's one accounting entry (`projected_tokens`, ...). */
  details?: Record<string, number>;
}

/**
 * The seam where a tool result is sized before it joins the conversation. An oversized result
 * (over the byte cap, or overflowing the context) is offered to the tool-output hook, which may
 * store it and answer with a handle message; a session that compacts then compacts the
 * conversation once per turn to make room; whatever still does not fit is replaced by
 * `(tool failed: context window budget exceeded)` and the final turn is forced.
 */
export class ResultSizer {
  /** Raw tokens of results admitted this turn and not yet in the conversation. */
  private pendingRaw = 0;
  /** Tokens the next request needs besides the conversation: its XML-NEXT notice (counted on first use). */
  private reserve: () => number = () => 0;
  private reserved: number | undefined;
  /** The compaction a result of this turn started, while it runs: every other result waits for it. */
  private compacting: Promise<boolean> | undefined;
  /** No compaction in the rest of this turn: one ran (at most one does), or the turn holds a report. */
  private compacted = false;

  constructor(private readonly options: ResultSizerOptions) {}

  /**
   * `noticeTokens`: the next request's XML-NEXT notice (with the report schema), counted by the
   * estimator when the first result of the turn is checked (a turn without tools counts none).
   */
  beginTurn(noticeTokens: number | (() => number) = 0): void {
    this.pendingRaw = 0;
    this.reserve = typeof noticeTokens === 'number' ? () => noticeTokens : noticeTokens;
    this.reserved = undefined;
    this.compacted = false;
  }

  /**
   * No compaction for the rest of this turn: it holds a report and the session ends with it, so
   * the results beside the report are not worth one (they are refused as without compaction).
   */
  noCompactionThisTurn(): void {
    this.compacted = true;
  }

  /** Everything the next request already holds: the conversation, results admitted this turn, the notice. */
  private committedTokens(): number {
    const { estimator, guard } = this.options;
    this.reserved ??= this.reserve();
    return estimator.corrected(guard.rawConversationTokens + this.pendingRaw) + this.reserved;
  }

  /** Byte cap and hook only (results inside a batch). */
  async resize(call: ToolCall, text: string): Promise<string> {
    const { estimator, guard } = this.options;
    const bytes = Buffer.byteLength(text, 'utf8');
    const tokens = estimator.text(text);
    const projection = guard.project(this.committedTokens(), tokens, this.options.target());
    const overSizeCap = bytes > this.options.toolResponseMaxBytes;
    if (this.options.hook === undefined || (!overSizeCap && projection.fits)) return text;
    const decision = await this.options.hook.size(
      {
        toolName: call.name,
        callId: call.id,
        argumentsJson: call.rawArguments ?? JSON.stringify(call.arguments),
        text,
        bytes,
        overSizeCap,
        estimatedTokens: tokens,
        remainingTokens: projection.remaining,
      },
      this.options.signal,
    );
    return decision.action === 'replace' ? decision.text : text;
  }

  /**
   * Sizes a top-level result and checks it against the context budget. Synchronous when the
   * session has no hook and no compaction runs: there is nothing to wait for, and `resize` would only count the text
   * the check counts again.
   */
  admit(call: ToolCall, text: string): Admitted | Promise<Admitted> {
    if (this.options.hook === undefined) return this.check(call, text);
    return this.resize(call, text).then((sized) => this.check(call, sized));
  }

  /**
   * Checks a sized result against the context budget: admitted, or (after a compaction that
   * made no room, when the session compacts) replaced by the refusal. Synchronous unless a
   * compaction runs.
   */
  private check(call: ToolCall, sized: string, mayCompact = true): Admitted | Promise<Admitted> {
    if (this.compacting !== undefined) return this.compacting.then(() => this.check(call, sized));
    const { estimator, guard } = this.options;
    const tokens = estimator.text(sized);
    const committed = this.committedTokens();
    const target = this.options.target();
    if (guard.fits(committed, tokens, target)) {
      this.pendingRaw += Math.ceil(tokens / estimator.correctionFactor);
      return { text: sized, contextExceeded: false };
    }
    const projection = guard.project(committed, tokens, target);
    if (mayCompact && !this.compacted && this.options.makeRoom !== undefined)
      return this.compactFor(call, sized, projection.projected - projection.limit);
    const details = {
      projected_tokens: projection.projected,
      limit_tokens: projection.limit,
      remaining_tokens: projection.remaining,
    };
    // The call's own accounting entry (written by the executor) carries the refusal: one entry per call.
    this.options.recorder.log({
      severity: 'WRN',
      direction: 'response',
      type: 'tool',
      remoteIdentifier: `agent:context-guard:${call.name}`,
      message: `tool result dropped: ${projection.projected} tokens projected, limit ${projection.limit}; forcing the final turn`,
      details: guardDetails('tool_result', 'tool_dropped', target, projection),
    });
    return { text: CONTEXT_BUDGET_EXCEEDED, contextExceeded: true, details };
  }

  /** Compacts the conversation for a result that does not fit, then checks the result once more. */
  private async compactFor(call: ToolCall, sized: string, overflow: number): Promise<Admitted> {
    this.compacting = this.options.makeRoom!(this.pendingRaw, overflow);
    try {
      this.compacted = await this.compacting;
    } finally {
      this.compacting = undefined;
    }
    return this.check(call, sized, false);
  }
}
