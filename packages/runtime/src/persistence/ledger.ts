import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AccountingEntry } from '@agent/protocol';

/**
 * The longest ledger line (bytes, newline included). Writes of one `O_APPEND` call are kept
 * whole between processes appending to the same local file; a bounded line keeps them small.
 */
export const MAX_LEDGER_LINE_BYTES = 16 * 1024;

/** The entry as one ledger line: its `error` shortened when the line would be over the bound. */
export function ledgerLine(entry: AccountingEntry, extra: { sessionId: string }): string {
  const line = `${JSON.stringify({ ...entry, sessionId: extra.sessionId })}\n`;
  if (Buffer.byteLength(line) <= MAX_LEDGER_LINE_BYTES) return line;
  const shortened = {
    ...entry,
    sessionId: extra.sessionId,
    error: `${(entry.error ?? '').slice(0, 1024)}... (cut: the ledger line was over ${MAX_LEDGER_LINE_BYTES} bytes)`,
    ...(entry.type === 'tool' && entry.details !== undefined ? { details: {} } : {}),
  };
  const text = `${JSON.stringify(shortened)}\n`;
  return Buffer.byteLength(text) <= MAX_LEDGER_LINE_BYTES
    ? text
    : `${JSON.stringify({ type: entry.type, timestamp: entry.timestamp, status: entry.status, sessionId: extra.sessionId, truncated: true })}\n`;
}

/**
 * A ledger file written in the background: `append` queues an entry (writes keep their order)
 * and returns at once; `flush` waits for the queue. A failed write is reported to the entry's
 * `onError` and the next entries are still tried.
 */
export class BillingLedger {
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly file: string) {}

  append(entry: AccountingEntry, sessionId: string, onError: (error: unknown) => void): void {
    this.queue = this.queue.then(() => appendLedger(this.file, [entry], sessionId).catch(onError));
  }

  flush(): Promise<void> {
    return this.queue;
  }
}

/**
 * Appends a run's accounting entries to the ledger, one `write` per line on a descriptor opened
 * with `O_APPEND` (created 0600, its directory if missing), so several processes can share it.
 */
export async function appendLedger(
  file: string,
  entries: readonly AccountingEntry[],
  sessionId: string,
): Promise<void> {
  if (entries.length === 0) return;
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const handle = await open(file, 'a', 0o600);
  try {
    for (const entry of entries) await handle.write(ledgerLine(entry, { sessionId }));
  } finally {
    await handle.close();
  }
}
