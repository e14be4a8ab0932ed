import type { AgentResult } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { Redactor } from '../config/redact.js';
import type { PersistenceSection } from '../config/schema.js';
import { appendLedger } from './ledger.js';
import { buildSessionRecord, type Conversations } from './record.js';
import { writeSessionRecord } from './record-file.js';

/**
 * What a runner keeps of its finished top-level runs (`persistence` in agent.json): the
 * session record in `sessionsDir`, the accounting entries in the `billingFile` ledger. The
 * writes run in the background (the run's result is not held up); `close` waits for them.
 */
export class RunPersistence {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly section: PersistenceSection | undefined,
    private readonly redact: Redactor,
  ) {}

  /** True when records are written: the run then keeps its sub-agents' conversations. */
  get keepsRecords(): boolean {
    return this.section?.sessionsDir !== undefined;
  }

  /** Starts the writes for a finished run; `onError` hears (redacted) why one failed. */
  persist(result: AgentResult, conversations: Conversations, onError: (message: string) => void): void {
    const { sessionsDir, billingFile } = this.section ?? {};
    const report = (what: string) => (error: unknown) =>
      onError(this.redact(`${what}: ${errorMessage(error)}`));
    if (billingFile !== undefined)
      this.track(
        appendLedger(billingFile, result.accounting, result.sessionId).catch(
          report(`cannot append to the billing ledger ${billingFile}`),
        ),
      );
    if (sessionsDir !== undefined)
      this.track(
        this.writeRecord(sessionsDir, result, conversations).catch(
          report(`cannot write the session record in ${sessionsDir}`),
        ),
      );
  }

  private async writeRecord(dir: string, result: AgentResult, conversations: Conversations): Promise<void> {
    // Yield first: the record is built after the caller has its result.
    await new Promise((resolve) => setImmediate(resolve));
    const record = buildSessionRecord(result, conversations, this.redact);
    if (record === undefined) return;
    await writeSessionRecord(
      dir,
      record,
      () => buildSessionRecord(result, conversations, this.redact, { payloads: false }) ?? record,
    );
  }

  private track(promise: Promise<void>): void {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise));
  }

  /** Resolves once every write started so far has ended. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
