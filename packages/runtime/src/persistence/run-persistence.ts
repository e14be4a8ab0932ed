import type { AgentResult } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { Redactor } from '../config/redact.js';
import type { PersistenceSection } from '../config/schema.js';
import type { RunScope } from '../run-scope.js';
import { BillingLedger } from './ledger.js';
import { buildSessionRecord, type Conversations } from './record.js';
import { writeSessionRecord } from './record-file.js';

/**
 * What a runner keeps of its top-level runs (`persistence` in agent.json): every accounting
 * entry in the `billingFile` ledger as it is recorded, and each finished session's record in
 * `sessionsDir`. The writes run in the background (the run is not held up); `flush` waits.
 */
export class RunPersistence {
  private readonly pending = new Set<Promise<void>>();
  private readonly ledger: BillingLedger | undefined;

  constructor(
    private readonly section: PersistenceSection | undefined,
    private readonly redact: Redactor,
  ) {
    const file = section?.billingFile;
    this.ledger = file === undefined ? undefined : new BillingLedger(file);
  }

  /**
   * Wires a run's scope: its accounting entries go to the ledger under the run's `sessionId`,
   * and its sub-agents' conversations are kept when a record will be written. `warn` hears
   * (redacted) why a write failed.
   */
  attach(scope: RunScope, sessionId: string, warn: (message: string) => void): void {
    scope.keepsConversations = this.section?.sessionsDir !== undefined;
    const ledger = this.ledger;
    if (ledger === undefined) return;
    const failed = (error: unknown) =>
      warn(this.redact(`cannot append to the billing ledger ${ledger.file}: ${errorMessage(error)}`));
    scope.onAccounting = (entry, meta) =>
      ledger.append(
        entry.agentPath === undefined ? { ...entry, agentPath: meta.agentPath } : entry,
        sessionId,
        failed,
      );
  }

  /** Starts writing the record of a finished run (when `sessionsDir` is set), with its `owner`. */
  persist(
    result: AgentResult,
    conversations: Conversations,
    warn: (message: string) => void,
    owner?: string,
  ): void {
    const dir = this.section?.sessionsDir;
    if (dir === undefined) return;
    const write = this.writeRecord(dir, result, conversations, owner).catch((error: unknown) =>
      warn(this.redact(`cannot write the session record in ${dir}: ${errorMessage(error)}`)),
    );
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }

  private async writeRecord(
    dir: string,
    result: AgentResult,
    conversations: Conversations,
    owner: string | undefined,
  ): Promise<void> {
    // Yield first: the record is built after the caller has its result.
    await new Promise((resolve) => setImmediate(resolve));
    const build = (payloads: boolean) =>
      buildSessionRecord(result, conversations, this.redact, {
        payloads,
        ...(owner === undefined ? {} : { owner }),
      });
    const record = build(true);
    if (record === undefined) return;
    await writeSessionRecord(dir, record, () => build(false) ?? record);
  }

  /** Resolves once every write started so far has ended. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
    await this.ledger?.flush();
  }
}
