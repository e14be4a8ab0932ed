import type { AccountingEntry } from './accounting.js';
import type { AssistantMessage } from './messages.js';
import type { ToolEndSession } from './tool-provider.js';

/*
 * The turn journal (docs/sessions.md, "Exactly once across a crash"). Within a turn, what has
 * happened is written to the session store before the session acts on it: the model's complete
 * answer, then each tool call's outcome as it finishes. A session resumed after a crash replays
 * the journaled answer instead of asking the model again, takes the journaled outcomes instead
 * of running those calls again, and runs only the calls that never finished (with the same
 * idempotency keys). A checkpoint written at the end of the turn makes the journal obsolete: the
 * store drops it then.
 */

/** The model's complete answer of a turn, before any of its tool calls runs. */
export interface JournaledAnswer {
  kind: 'answer';
  sessionId: string;
  /** The turn it answers (the last checkpoint's `turn` + 1). */
  turn: number;
  /** As the conversation keeps it: text, reasoning, tool calls with their ids. */
  message: AssistantMessage;
  /** The model call's accounting entry: recorded again when the answer is replayed. */
  accounting?: AccountingEntry;
}

/** One tool call's outcome as the tool returned it (before the session sized it for the model). */
export interface JournaledToolOutcome {
  kind: 'tool_outcome';
  sessionId: string;
  turn: number;
  /** The call's id in the journaled answer (`<batch call id>:<inner id>` inside `agent__batch`). */
  callId: string;
  tool: string;
  ok: boolean;
  text: string;
  /** Short error slug when `ok` is false. */
  error?: string;
  structured?: unknown;
  endSession?: ToolEndSession;
}

export type TurnJournalEntry = JournaledAnswer | JournaledToolOutcome;

/**
 * What a session store adds to keep turn journals. Optional in `SessionStore`: a store without
 * it checkpoints as before, and tool calls are at-least-once across a crash.
 */
export interface TurnJournalStore {
  /**
   * Appends one entry to the session's journal; it is durable when the promise resolves.
   * Rejects (naming the store and the bound) when the journal would pass its bounds.
   */
  appendJournal(entry: TurnJournalEntry): Promise<void>;
  /** The journal written since the session's last snapshot, oldest first; empty when none. */
  loadJournal(sessionId: string): Promise<TurnJournalEntry[]>;
}
