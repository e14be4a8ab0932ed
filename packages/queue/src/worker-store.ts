import {
  DEFAULT_SESSION_TTL_MS,
  openRedisSessionStore,
  resolveSnapshotKeys,
  type SnapshotKeySettings,
  stateSnapshotKeyFile,
} from '@agent/cache';
import type { ConversationExchange, SessionSnapshot, SessionStore, TurnJournalEntry } from '@agent/protocol';

/**
 * The fleet's session store: the Redis session store on the queue's URL, where workers
 * checkpoint every session. A face opens it to read sessions (`GET /v1/sessions/:id`) that any
 * worker ran, whichever face started them. `keySettings`: a config's `sessions.snapshotKey` /
 * `previousSnapshotKeys` (default `AGENT_SNAPSHOT_KEY`, else the state directory's key file).
 * A process whose key is not the one the fleet sealed the store with is refused here
 * (`ConfigError`): every machine of a fleet sets the same key.
 */
export async function openQueueSessionStore(
  url: string,
  options: { keySettings?: SnapshotKeySettings; env?: Record<string, string | undefined> } = {},
): Promise<SessionStore> {
  const env = options.env ?? process.env;
  const snapshotKeys = await resolveSnapshotKeys(options.keySettings ?? {}, env, stateSnapshotKeyFile(env));
  return openRedisSessionStore({ url, ttlMs: DEFAULT_SESSION_TTL_MS, snapshotKeys, env });
}

/**
 * The worker's view of the shared session store: the same snapshots, except that a session the
 * worker hands back (SIGTERM) keeps its last turn's checkpoint: the `finished` snapshot its
 * cancelled run would write is dropped, so the next worker resumes it. Its turn journal stays
 * too (the next worker replays it), and takes no more entries: what the cancelled run journals
 * after the hand-back (calls cut short by the cancel) must not be replayed as their outcomes.
 */
export class WorkerSessionStore implements SessionStore {
  private readonly handedBack = new Set<string>();
  /** The inner store's journal methods, when it keeps journals. */
  readonly appendJournal?: (entry: TurnJournalEntry) => Promise<void>;
  readonly loadJournal?: (sessionId: string) => Promise<TurnJournalEntry[]>;

  constructor(private readonly inner: SessionStore) {
    const { appendJournal, loadJournal } = inner;
    if (appendJournal !== undefined && loadJournal !== undefined) {
      this.appendJournal = async (entry) => {
        if (this.handedBack.has(entry.sessionId)) return;
        await appendJournal.call(inner, entry);
      };
      this.loadJournal = (sessionId) => loadJournal.call(inner, sessionId);
    }
  }

  get name(): string {
    return this.inner.name;
  }
  get location(): string {
    return this.inner.location;
  }

  /** From now on, `save` ignores this session's snapshots. */
  handBack(sessionId: string): void {
    this.handedBack.add(sessionId);
  }

  forget(sessionId: string): void {
    this.handedBack.delete(sessionId);
  }

  async save(snapshot: SessionSnapshot): Promise<void> {
    if (this.handedBack.has(snapshot.sessionId)) return;
    await this.inner.save(snapshot);
  }

  load(sessionId: string): Promise<SessionSnapshot | undefined> {
    return this.inner.load(sessionId);
  }

  delete(sessionId: string): Promise<boolean> {
    return this.inner.delete(sessionId);
  }

  loadConversation(conversationId: string): Promise<ConversationExchange[]> {
    return this.inner.loadConversation(conversationId);
  }

  appendExchange(conversationId: string, exchange: ConversationExchange): Promise<void> {
    return this.inner.appendExchange(conversationId, exchange);
  }

  deleteConversation(conversationId: string): Promise<boolean> {
    return this.inner.deleteConversation(conversationId);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
