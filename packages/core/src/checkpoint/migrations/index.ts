import { SESSION_SNAPSHOT_VERSION, type SessionSnapshot } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';
import { v1ToV2 } from './v1-to-v2.js';

/**
 * One step per version: `STEPS[n]` turns a version n snapshot into version n + 1. A release
 * that changes the format bumps `SESSION_SNAPSHOT_VERSION`, adds its step here and keeps a
 * fixture of the old format in `test/checkpoint/fixtures/` (docs/sessions.md).
 */
const STEPS: Record<
  number,
  (snapshot: never, migrateChild: (child: unknown) => SessionSnapshot) => SessionSnapshot
> = {
  1: v1ToV2,
};

/**
 * A snapshot of any earlier version (checked: an integer from 1 up to this release's) as this
 * release writes it; a copy, the caller's object is left as it was. The current version is
 * returned as given.
 */
export function migrateSnapshot(snapshot: Record<string, unknown>): SessionSnapshot {
  let current = snapshot as unknown as SessionSnapshot;
  if (current.version === SESSION_SNAPSHOT_VERSION) return current;
  current = structuredClone(current);
  while (current.version < SESSION_SNAPSHOT_VERSION) {
    const step = STEPS[current.version];
    if (step === undefined) throw new Error(`no migration from snapshot version ${current.version}`);
    current = step(current as never, migrateChild);
  }
  return current;
}

/** A paused sub-agent's snapshot is migrated as its own (it has its own version). */
function migrateChild(child: unknown): SessionSnapshot {
  return isRecord(child) && typeof child.version === 'number'
    ? migrateSnapshot(child)
    : (child as SessionSnapshot);
}
