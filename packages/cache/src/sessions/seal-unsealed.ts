import type { SessionStore } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';
import { MAX_SNAPSHOT_BYTES } from './session-records.js';
import { SEAL_PREFIX, type SnapshotKeys, sealSnapshot } from './snapshot-seal.js';

/** A stored snapshot `sealUnsealedSnapshots` left without a tag, and why. */
export interface UnsealedSkip {
  sessionId: string;
  why: string;
}

/** What `sealUnsealedSnapshots` did. */
export interface SealReport {
  /** Version 1 snapshots without a tag that now carry one. */
  sealed: number;
  /** Snapshots without a tag it refused to seal (the first `MAX_LISTED_SKIPS`). */
  skipped: UnsealedSkip[];
  /** Refused ones beyond those listed in `skipped`. */
  unlisted: number;
}

/**
 * A store that can seal, once, the snapshots written before tags (version 1, no tag): after an
 * upgrade, by an operator who trusts what the store holds (docs/sessions.md). Not part of
 * `SessionStore`: it is a one-off maintenance step, never done by a running session.
 */
export interface SnapshotSealing {
  sealUnsealedSnapshots(): Promise<SealReport>;
}

/** A session store with `sealUnsealedSnapshots` (SQLite and Redis). */
export type SealingSessionStore = SessionStore & SnapshotSealing;

/** True when `store` can seal its snapshots written before tags. */
export function canSealSnapshots<T extends object>(store: T): store is T & SnapshotSealing {
  return typeof (store as Partial<SnapshotSealing>).sealUnsealedSnapshots === 'function';
}

/** Skipped snapshots listed in a report at most (the rest are counted): bounded memory. */
export const MAX_LISTED_SKIPS = 1000;

/** What to do with one stored text: nothing (it has a tag), seal it (the new text), or skip it. */
export type SealVerdict = { kind: 'tagged' } | { kind: 'seal'; text: string } | { kind: 'skip'; why: string };

/**
 * The verdict on a stored text of session `sessionId`: only an untagged version 1 snapshot of
 * that session is sealed, its stored JSON tagged byte for byte as it is.
 */
export function sealVerdict(stored: string, sessionId: string, keys: SnapshotKeys): SealVerdict {
  if (stored.startsWith(SEAL_PREFIX)) return { kind: 'tagged' };
  if (Buffer.byteLength(stored) > MAX_SNAPSHOT_BYTES) {
    return { kind: 'skip', why: `it is over the ${MAX_SNAPSHOT_BYTES}-byte bound of a snapshot` };
  }
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return { kind: 'skip', why: 'it is not valid JSON' };
  }
  if (!isRecord(value) || value.sessionId !== sessionId) {
    return { kind: 'skip', why: 'it is not a snapshot of this session' };
  }
  if (value.version !== 1) {
    return {
      kind: 'skip',
      why: `it is version ${JSON.stringify(value.version)}, and only version 1 snapshots (written before tags) are sealed: a newer one without a tag was written or changed outside this program`,
    };
  }
  return { kind: 'seal', text: sealSnapshot(stored, keys) };
}

/** The report being built: sealed count, skipped ones listed up to the bound. */
export class SealTally {
  private readonly report: SealReport = { sealed: 0, skipped: [], unlisted: 0 };

  sealed(): void {
    this.report.sealed++;
  }

  skipped(sessionId: string, why: string): void {
    if (this.report.skipped.length < MAX_LISTED_SKIPS) this.report.skipped.push({ sessionId, why });
    else this.report.unlisted++;
  }

  done(): SealReport {
    return this.report;
  }
}
