import type { AgentResult } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { Redactor } from '../config/redact.js';
import type { PersistenceSection } from '../config/schema.js';
import type { RunScope } from '../runner/run-scope.js';
import { BillingLedger } from './ledger.js';
import { buildSessionRecord, type RecordDetails } from './record.js';
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
    // Conversations and tapes: the payloads of the record.
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

  /**
   * Starts writing the record of a finished run (when `sessionsDir` is set): its sessions'
   * conversations and tapes (kept in `scope`), what it was asked (`input`) and its `owner`.
   */
  persist(
    result: AgentResult,
    scope: Pick<RunScope, 'conversations' | 'tapes'>,
    warn: (message: string) => void,
    details: RecordDetails,
  ): void {
    const dir = this.section?.sessionsDir;
    if (dir === undefined) return;
    const write = this.writeRecord(dir, result, scope, details).catch((error: unknown) =>
      warn(this.redact(`cannot write the session record in ${dir}: ${errorMessage(error)}`)),
    );
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }

  private async writeRecord(
    dir: string,
    result: AgentResult,
    scope: Pick<RunScope, 'conversations' | 'tapes'>,
    details: RecordDetails,
  ): Promise<void> {
    // Yield first: the record is built after the caller has its result.
    await new Promise((resolve) => setImmediate(resolve));
    const build = (payloads: boolean) =>
      buildSessionRecord(result, scope, this.redact, { ...details, payloads });
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
