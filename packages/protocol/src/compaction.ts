// Compaction (docs/compaction.md): when the next request would fill the context past a threshold,
// a session's older turns are replaced by a summary the model writes, and the turns themselves are
// stored behind a handle the `tool_output` tool expands. These are the shapes every package shares.

/**
 * The `compaction` setting of a session (core option and agent file key). Every field is
 * optional; `true` means all defaults (`DEFAULT_COMPACTION`).
 */
export interface CompactionSettings {
  /**
   * Compact when the next request is projected past this fraction of the usable window (the
   * context guard's limit: window - buffer - max output tokens). Above 0 and below 1; default 0.8.
   */
  at?: number;
  /** The most recent turns always kept verbatim (a whole number, 1 to 100; default 2). */
  keep?: number;
  /**
   * Summary calls one compaction may make (the first and its retries, 1 to 10; default 2). When
   * they all fail, compaction is given up for the rest of the session and the context guard acts
   * as without it (the forced final turn).
   */
  attempts?: number;
  /** The summary's length limit in tokens (the summary call's max output tokens, 256 to 32768; default 2048). */
  tokens?: number;
}

/** The settings with every default filled in. */
export type ResolvedCompaction = Required<CompactionSettings>;

export const DEFAULT_COMPACTION: Readonly<ResolvedCompaction> = Object.freeze({
  at: 0.8,
  keep: 2,
  attempts: 2,
  tokens: 2048,
});

/**
 * What made a compaction run: `turn_projection`, between two turns, the next request projected
 * past `at` of the limit; `tool_result`, inside a turn, a tool result that does not fit the
 * context (after the tool-output store had its chance): the compaction makes room for it.
 */
export type CompactionTrigger = 'turn_projection' | 'tool_result';

/** How a compaction ended: the turns were replaced, or nothing changed (the guard acts as without it). */
export type CompactionOutcome = 'compacted' | 'failed';
export const COMPACTION_OUTCOMES: readonly CompactionOutcome[] = ['compacted', 'failed'];

/** One compaction, as its `compaction` event, its op-tree node and its log line tell it. */
export interface CompactionRun {
  /** 1 for the session's first compaction, and so on (failed ones count too). */
  index: number;
  /** The turn it ran after (`turn_projection`: turns completed) or inside (`tool_result`). */
  turn: number;
  trigger: CompactionTrigger;
  outcome: CompactionOutcome;
  /** Corrected tokens of the next request before, and after (equal to before when it failed). */
  beforeTokens: number;
  afterTokens: number;
  /** The context guard's limit the projection is measured against, and the threshold (`at` x limit). */
  limitTokens: number;
  thresholdTokens: number;
  /** Conversation messages replaced by the summary, and the turns they came from (`fromTurn`..`toTurn`). */
  messages: number;
  fromTurn: number;
  toTurn: number;
  /** Summary calls made (at most `attempts`). */
  calls: number;
  /** `compacted`: the handle the replaced messages are stored behind (`tool_output` expands it). */
  handle?: string;
  /** `compacted`: the summary the model wrote, as the conversation now holds it. */
  summary?: string;
  /** `failed`: why (every summary call failed, the summary did not fit, the store refused, ...). */
  error?: string;
  /** `failed`: compaction is given up for the rest of the session. */
  exhausted?: boolean;
  /** The target that wrote the summary (the session's current one). */
  provider?: string;
  model?: string;
  durationMs: number;
}

/** One stored compaction the summary message names: its handle and the turns it holds. */
export interface CompactedRange {
  handle: string;
  fromTurn: number;
  toTurn: number;
}

/** The compaction state a snapshot carries (`loop.compaction`), so a resumed session goes on the same. */
export interface CompactionState {
  /** Messages at the start of the conversation never compacted: the system prompt, earlier exchanges, the request. */
  head: number;
  /** Compactions run so far (failed ones included). */
  count: number;
  /** Compaction was given up for the rest of the session. */
  exhausted: boolean;
  /** The message right after the head is the current summary (a session compacted at least once). */
  summarized: boolean;
  /** The turns compacted so far, oldest first, each behind its handle. */
  ranges: CompactedRange[];
}

/** The name a compacted transcript is stored under in the tool-output store (its `toolName`). */
export const COMPACTION_STORE_NAME = 'agent__compaction';
