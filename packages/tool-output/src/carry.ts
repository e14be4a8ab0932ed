import { COMPACTION_STORE_NAME, type SavedToolOutput } from '@agent/protocol';
import { countLines, type StoredOutput } from './handles.js';
import type { ToolOutputStore } from './store.js';

/**
 * A snapshot carries at most this many bytes of stored outputs: compaction transcripts first
 * (the newest first among them), so a resumed session can always expand its compactions, then
 * tool outputs, the newest first. A session store takes snapshots up to 32 MiB. Outputs left out
 * are unknown handles after a resume.
 */
export const MAX_SAVED_OUTPUT_BYTES = 8 * 1024 * 1024;

/**
 * Carries a session's stored outputs across a resume: `save` reads them for a snapshot (kept
 * until the set of handles changes, so a checkpoint per turn reads the files once), `restore`
 * writes a snapshot's outputs back under their handles.
 */
export class OutputCarry {
  private saved: { count: number; outputs: SavedToolOutput[]; left: number } | undefined;

  constructor(private readonly store: ToolOutputStore) {}

  /** The outputs for a snapshot, in the order they were stored, within the bound; and how many were left out. */
  async save(): Promise<{ outputs: SavedToolOutput[]; left: number }> {
    const records = this.store.handles.list();
    if (this.saved?.count === records.length) return this.saved;
    const kept = new Set<StoredOutput>();
    let bytes = 0;
    for (const record of carryOrder(records)) {
      if (bytes + record.bytes > MAX_SAVED_OUTPUT_BYTES) continue;
      bytes += record.bytes;
      kept.add(record);
    }
    const outputs: SavedToolOutput[] = [];
    for (const record of records) {
      if (kept.has(record)) outputs.push(savedOf(record, await this.store.read(record)));
    }
    this.saved = { count: records.length, outputs, left: records.length - kept.size };
    return this.saved;
  }

  /** Writes the outputs back; each one that is not a well-formed saved output is skipped and counted. */
  async restore(outputs: readonly SavedToolOutput[]): Promise<{ restored: number; skipped: number }> {
    let restored = 0;
    let skipped = 0;
    for (const output of outputs) {
      if (!isSavedOutput(output)) {
        skipped++;
        continue;
      }
      const bytes = Buffer.byteLength(output.text);
      try {
        await this.store.putAt(
          output.handle,
          {
            toolName: output.toolName,
            argumentsJson: output.argumentsJson,
            bytes,
            lines: countLines(output.text),
            tokens: output.tokens,
          },
          output.text,
        );
        restored++;
      } catch {
        skipped++;
      }
    }
    return { restored, skipped };
  }
}

/** The order outputs claim the carry bound in: compaction transcripts, then tool outputs; the newest first in each. */
function carryOrder(records: readonly StoredOutput[]): StoredOutput[] {
  const newestFirst = [...records].reverse();
  return [
    ...newestFirst.filter((r) => r.toolName === COMPACTION_STORE_NAME),
    ...newestFirst.filter((r) => r.toolName !== COMPACTION_STORE_NAME),
  ];
}

function savedOf(record: StoredOutput, text: string): SavedToolOutput {
  return {
    handle: record.handle,
    toolName: record.toolName,
    argumentsJson: record.argumentsJson,
    tokens: record.tokens,
    createdAt: record.createdAt,
    text,
  };
}

function isSavedOutput(value: unknown): value is SavedToolOutput {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.handle === 'string' &&
    typeof v.toolName === 'string' &&
    typeof v.argumentsJson === 'string' &&
    typeof v.tokens === 'number' &&
    typeof v.text === 'string'
  );
}
