import { openSessionStore } from '@agent/cache';
import type { AgentResult, SessionSnapshot, SessionStore } from '@agent/protocol';
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
   * A durable run's checkpoint listener whose store is opened by the first snapshot, so the
   * run's first request does not wait for it. A store that cannot open turns checkpoints off
   * for the run: `unavailable` is called once and later snapshots are dropped; `stored()` says
   * whether the snapshots so far could go to the store.
   */
  openingCheckpointer(
    labels: Record<string, string> | undefined,
    unavailable: (error: unknown) => void,
  ): { listener: (snapshot: SessionSnapshot) => Promise<void>; stored(): boolean } {
    let failed = false;
    return {
      listener: async (snapshot) => {
        if (failed) return;
        let store: SessionStore;
        try {
          store = await this.store();
        } catch (error) {
          failed = true;
          unavailable(error);
          return;
        }
        await store.save(this.labelled(snapshot, labels));
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
