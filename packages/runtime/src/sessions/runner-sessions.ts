import { openSessionStore } from '@agent/cache';
import type { AgentResult, SessionSnapshot, SessionStore, TurnJournalEntry } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { type ResolvedConfig, unusableValueError } from '../config/layers.js';

/**
 * A runner's session store, opened on first use (a run that neither checkpoints nor pauses
 * touches no file): `agent.json`'s `sessions`, SQLite in the user's state directory by default.
 */
export class RunnerSessions {
  private opening: Promise<SessionStore> | undefined;

  /**
   * `agentFile`: the absolute path of the top agent file, kept in every snapshot's labels;
   * `given`: a store the caller opened and closes (used instead of `agent.json`'s `sessions`).
   */
  constructor(
    private readonly config: ResolvedConfig,
    private readonly agentFile: string,
    private readonly given?: SessionStore,
  ) {}

  private labelled(snapshot: SessionSnapshot, labels?: Record<string, string>): SessionSnapshot {
    return { ...snapshot, labels: { ...snapshot.labels, ...labels, agentFile: this.agentFile } };
  }

  /** The store; rejects with a `SessionStoreError` (or `ConfigError`) naming it when it cannot open. */
  store(): Promise<SessionStore> {
    if (this.given !== undefined) return Promise.resolve(this.given);
    if (this.opening === undefined) {
      const section = this.config.sessions?.value ?? {};
      const unusable = unusableValueError(section);
      this.opening =
        unusable === undefined
          ? openSessionStore(section, { env: this.config.env })
          : Promise.reject(unusable);
      // A failed open is retried by the next run (the store may be back).
      this.opening.catch(() => {
        this.opening = undefined;
      });
    }
    return this.opening;
  }

  /** Saves each checkpoint (with the run's `labels`); the next turn waits for the write. */
  checkpointer(
    store: SessionStore,
    labels?: Record<string, string>,
  ): (snapshot: SessionSnapshot) => Promise<void> {
    return (snapshot) => store.save(this.labelled(snapshot, labels));
  }

  /**
   * Writes each turn journal entry to the store (the session waits for the write); undefined
   * when the store keeps no journals (its sessions' tool calls are at-least-once across a crash).
   */
  journaler(store: SessionStore): ((entry: TurnJournalEntry) => Promise<void>) | undefined {
    if (store.appendJournal === undefined) return undefined;
    return (entry) => store.appendJournal!(entry);
  }

  /**
   * The journal written since a session's snapshot, for its resume: empty when the store keeps
   * none. Rejects (a `SnapshotIntegrityError` for an edited entry) rather than replay one.
   */
  async journalOf(store: SessionStore, sessionId: string): Promise<TurnJournalEntry[]> {
    return store.loadJournal === undefined ? [] : store.loadJournal(sessionId);
  }

  /**
   * A durable run's checkpoint listener whose store is opened by the first snapshot, so the
   * run's first request does not wait for it. A store that cannot open turns checkpoints off
   * for the run: `unavailable` is called once and later snapshots are dropped; `stored()` says
   * whether the snapshots so far could go to the store. `journal` writes the turn journal to
   * the same store (left out when the caller's store keeps none; entries are dropped once
   * checkpoints are off: no snapshot would replay them).
   */
  openingCheckpointer(
    labels: Record<string, string> | undefined,
    unavailable: (error: unknown) => void,
  ): {
    listener: (snapshot: SessionSnapshot) => Promise<void>;
    journal?: (entry: TurnJournalEntry) => Promise<void>;
    stored(): boolean;
  } {
    let failed = false;
    // The store, or undefined once it could not open (then checkpoints and journal are off).
    const opened = async (): Promise<SessionStore | undefined> => {
      if (failed) return undefined;
      try {
        return await this.store();
      } catch (error) {
        if (!failed) unavailable(error);
        failed = true;
        return undefined;
      }
    };
    const journal = async (entry: TurnJournalEntry) => {
      await (await opened())?.appendJournal?.(entry);
    };
    const keepsJournals = this.given === undefined || this.given.appendJournal !== undefined;
    return {
      ...(keepsJournals ? { journal } : {}),
      listener: async (snapshot) => {
        await (await opened())?.save(this.labelled(snapshot, labels));
      },
      stored: () => !failed,
    };
  }

  /**
   * A paused result's snapshot goes to the store even when the run did not checkpoint, so
   * `agent resume` can find it; a store that is down is said in the result's error (the
   * snapshot stays in the result).
   */
  async keepPaused(
    result: AgentResult,
    alreadyStored: boolean,
    labels?: Record<string, string>,
  ): Promise<AgentResult> {
    if (result.success || result.snapshot === undefined || alreadyStored) return result;
    try {
      await (await this.store()).save(this.labelled(result.snapshot, labels));
      return result;
    } catch (error) {
      return {
        ...result,
        error: this.config.redact(`${result.error}; storing its snapshot failed: ${errorMessage(error)}`),
      };
    }
  }

  async close(): Promise<void> {
    const opening = this.opening;
    this.opening = undefined;
    if (opening !== undefined) await (await opening.catch(() => undefined))?.close();
  }
}
