import type { SessionSnapshot } from './session-snapshot.js';

/**
 * Where session snapshots are kept between processes (`docs/sessions.md`). `save` replaces the
 * session's snapshot with a newer one; a finished session is kept for the store's TTL, an
 * unfinished one until it finishes or its longer TTL passes. Every method rejects with an
 * `AgentError` naming the store (its password redacted) when the store cannot be reached: a
 * store that is down never loses what it already holds.
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
  close(): Promise<void>;
}
