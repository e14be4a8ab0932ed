import type { SessionSnapshot } from './session-snapshot.js';
import type { TurnJournalEntry } from './turn-journal.js';

/**
 * One earlier run of a conversation (`docs/sessions.md`, "Conversations"): the user's prompt
 * and the final report it got, never the tool calls and results between them.
 */
export interface ConversationExchange {
  prompt: string;
  /** The final report as text (a JSON report serialised). */
  report: string;
  /** The session id of the run. */
  sessionId: string;
  /** Epoch milliseconds when the exchange was stored. */
  at: number;
}

/**
 * Where session snapshots are kept between processes (`docs/sessions.md`). `save` replaces the
 * session's snapshot with a newer one; a finished session is kept for the store's TTL, an
 * unfinished one until it finishes or its longer TTL passes. Every method rejects with an
 * `AgentError` naming the store (its password redacted) when the store cannot be reached: a
 * store that is down never loses what it already holds.
 *
 * The same store keeps conversations: per conversation id, the exchanges of its runs, oldest
 * first, bounded (a store drops the oldest past its caps on exchanges and bytes).
 */
export interface SessionStore {
  /** `sqlite`, `redis`, or your own. */
  readonly name: string;
  /** Where the snapshots are (a path, a redacted URL), for messages. */
  readonly location: string;
  save(snapshot: SessionSnapshot): Promise<void>;
  /** The session's latest snapshot; undefined when there is none (never was, or expired). */
  load(sessionId: string): Promise<SessionSnapshot | undefined>;
  /** True when there was one to remove. */
  delete(sessionId: string): Promise<boolean>;
  /** The conversation's exchanges, oldest first; empty when there is none (never was, or expired). */
  loadConversation(conversationId: string): Promise<ConversationExchange[]>;
  /** Adds an exchange at the end; the oldest go past the store's bounds. Atomic per conversation. */
  appendExchange(conversationId: string, exchange: ConversationExchange): Promise<void>;
  /** True when there was one to remove. */
  deleteConversation(conversationId: string): Promise<boolean>;
  close(): Promise<void>;
  /**
   * The turn journal (`TurnJournalStore`): optional. `save` drops the session's journal (the
   * snapshot covers it) and `delete` removes it with the snapshot.
   */
  appendJournal?(entry: TurnJournalEntry): Promise<void>;
  loadJournal?(sessionId: string): Promise<TurnJournalEntry[]>;
}
