import { basename } from 'node:path';
import type { JUnitCase, JUnitSuite, ReplaySuiteEntry, ReplaySuiteResult } from '../types.js';

/**
 * A replayed directory as JUnit: one suite, one case per record (named by its file), a
 * diverged record a `failure` listing its divergences (with their diffs), an unreplayable one
 * an `error`.
 */
export function replaySuiteToJUnit(result: ReplaySuiteResult): JUnitSuite[] {
  return [
    {
      name: `agent replay ${result.directory} (--compare ${result.compare})`,
      timeMs: result.durationMs,
      cases: result.entries.map(entryCase),
    },
  ];
}

function entryCase(entry: ReplaySuiteEntry): JUnitCase {
  const base = {
    name: basename(entry.file),
    classname: 'agent.replay',
    timeMs: entry.result?.durationMs ?? 0,
  };
  if (entry.error !== undefined) return { ...base, error: { message: entry.error, type: 'unreplayable' } };
  const divergences = entry.result?.divergences ?? [];
  if (divergences.length === 0) return base;
  const details = divergences
    .map((divergence) =>
      'diff' in divergence ? `${divergence.message}\n${divergence.diff}` : divergence.message,
    )
    .join('\n\n');
  const count = divergences.length;
  return {
    ...base,
    failure: {
      message: `diverged from its record (${count} divergence${count === 1 ? '' : 's'}): ${divergences[0]?.message}`,
      type: 'diverged',
      details,
    },
  };
}
