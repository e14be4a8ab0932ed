import { closeSync, openSync, writeSync } from 'node:fs';
import type { AccountingEntry } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';

/**
 * `--accounting FILE`: every accounting entry appended as one JSON line the moment it
 * arrives (synchronous writes keep the order and survive a crash right after).
 */
export class AccountingFile {
  private fd: number | undefined;
  private failed = false;

  /** Opens (creates) the file for appending; throws when it cannot be opened. */
  constructor(
    readonly path: string,
    private readonly onError: (message: string) => void,
  ) {
    this.fd = openSync(path, 'a');
  }

  append(entry: AccountingEntry, agentPath?: string): void {
    if (this.fd === undefined || this.failed) return;
    const line = entry.agentPath === undefined && agentPath !== undefined ? { ...entry, agentPath } : entry;
    try {
      writeSync(this.fd, `${JSON.stringify(line)}\n`);
    } catch (error) {
      this.failed = true;
      this.onError(`cannot write accounting file ${this.path}: ${errorMessage(error)}`);
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } finally {
      this.fd = undefined;
    }
  }
}
