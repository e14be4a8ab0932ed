import {
  type ConversationMessage,
  DEFAULT_CONTEXT_BUFFER,
  DEFAULT_CONTEXT_WINDOW,
  type ModelTarget,
} from '@agent/protocol';

export interface ContextProjection {
  projected: number;
  limit: number;
  remaining: number;
  fits: boolean;
}

/**
 * Keeps the running token size of the conversation and projects what a request or a new
 * tool result would need against a target's window (window - buffer - max output tokens).
 * The conversation total is maintained incrementally: nothing is re-counted per turn, and a
 * message is counted when a projection first needs it, so the answer that ends a session (its
 * report) is never counted.
 */
export class ContextGuard {
  /** Raw (uncorrected) tokens of the counted messages of the conversation. */
  private conversationRaw = 0;
  /** Messages added since the total was last read. */
  private readonly uncounted: ConversationMessage[] = [];

  constructor(
    private readonly windowOverride: number | undefined,
    private readonly maxOutputTokens: number,
    /** Raw tokens of messages (the session's estimator). */
    private readonly countRaw: (messages: readonly ConversationMessage[]) => number,
    /** A number never below `countRaw` that counts nothing it can avoid (the estimator's bound). */
    private readonly boundRaw: (messages: readonly ConversationMessage[]) => number = countRaw,
  ) {}

  add(message: ConversationMessage): void {
    this.uncounted.push(message);
  }

  /**
   * Starts the running total again from `messages` (a compaction replaced part of the
   * conversation); they are counted when a projection first needs them, as added ones are.
   */
  reset(messages: readonly ConversationMessage[]): void {
    this.conversationRaw = 0;
    this.uncounted.length = 0;
    this.uncounted.push(...messages);
  }

  get rawConversationTokens(): number {
    if (this.uncounted.length > 0) {
      this.conversationRaw += this.countRaw(this.uncounted);
      this.uncounted.length = 0;
    }
    return this.conversationRaw;
  }

  /** Never below `rawConversationTokens`, and counts no message the bound settles. */
  get rawConversationBound(): number {
    return this.uncounted.length === 0
      ? this.conversationRaw
      : this.conversationRaw + this.boundRaw(this.uncounted);
  }

  /** Never above `rawConversationTokens`: the messages counted so far. */
  get rawConversationFloor(): number {
    return this.conversationRaw;
  }

  /** The raw tokens of the conversation as it is now, counted only when called. */
  rawTokensNow(): () => number {
    const base = this.conversationRaw;
    if (this.uncounted.length === 0) return () => base;
    const messages = [...this.uncounted];
    return () => base + this.countRaw(messages);
  }

  limitFor(target: ModelTarget | undefined): number {
    const window = this.windowOverride ?? target?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
    const buffer = target?.contextBuffer ?? DEFAULT_CONTEXT_BUFFER;
    return Math.max(0, window - buffer - this.maxOutputTokens);
  }

  windowFor(target: ModelTarget | undefined): number {
    return this.windowOverride ?? target?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  }

  /** `project(...).fits` without the projection: the common answer, asked per result and per turn. */
  fits(current: number, extra: number, target: ModelTarget | undefined): boolean {
    return current + extra <= this.limitFor(target);
  }

  /** `current` is the corrected size of everything already committed to the next request. */
  project(current: number, extra: number, target: ModelTarget | undefined): ContextProjection {
    const limit = this.limitFor(target);
    const projected = current + extra;
    return { projected, limit, remaining: limit - current, fits: projected <= limit };
  }
}
