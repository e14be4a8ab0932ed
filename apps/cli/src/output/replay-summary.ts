import { basename } from 'node:path';
import type { Divergence, ReplayResult, ReplaySuiteResult } from '@agent/evals';
import { formatDuration } from './session-tree.js';
import { textTable } from './text-table.js';

/**
 * One replayed record for the terminal: `match` or `diverged`, then each divergence's message
 * and, for requests and reports, its diff (indented).
 */
export function renderReplay(file: string, result: ReplayResult): string {
  const verdict = result.match ? 'match' : `diverged (${result.divergences.length})`;
  const lines = [
    `${file}: ${verdict} under --compare ${result.compare} (${formatDuration(result.durationMs)})`,
  ];
  for (const divergence of result.divergences) lines.push(...renderDivergence(divergence));
  return `${lines.join('\n')}\n`;
}

function renderDivergence(divergence: Divergence): string[] {
  const lines = [`  ${divergence.kind}: ${divergence.message}`];
  if ('diff' in divergence) lines.push(...divergence.diff.split('\n').map((line) => `    ${line}`));
  return lines;
}

/** A replayed directory: a table (record, result, divergences, time), a totals line, then the details. */
export function renderReplaySuite(suite: ReplaySuiteResult): string {
  const rows = suite.entries.map((entry) => [
    basename(entry.file),
    entry.error !== undefined ? 'error' : entry.result?.match === true ? 'match' : 'diverged',
    entry.error !== undefined ? '-' : String(entry.result?.divergences.length ?? 0),
    formatDuration(entry.result?.durationMs),
  ]);
  const header = ['record', 'result', 'divergences', 'time'];
  const out = textTable(header, rows);
  const count = suite.entries.length;
  out.push(
    '',
    `${count} record${count === 1 ? '' : 's'}: ${suite.matched} matched, ${suite.diverged} diverged, ${suite.errors} not replayable (--compare ${suite.compare}, ${formatDuration(suite.durationMs)})`,
  );
  for (const entry of suite.entries) {
    if (entry.error !== undefined) out.push('', `${basename(entry.file)}: not replayable: ${entry.error}`);
    else if (entry.result !== undefined && !entry.result.match)
      out.push('', renderReplay(basename(entry.file), entry.result).trimEnd());
  }
  return `${out.join('\n')}\n`;
}

/** What `--json` prints of one replay: the verdict and divergences, not the whole records. */
export function replayJson(file: string, result: ReplayResult) {
  return {
    file,
    match: result.match,
    compare: result.compare,
    divergences: result.divergences,
    durationMs: result.durationMs,
    replayed: { sessionId: result.result.sessionId, exitCode: result.result.exitCode },
  };
}

/** What `--json` prints of a replayed directory. */
export function replaySuiteJson(suite: ReplaySuiteResult) {
  const { entries, ...totals } = suite;
  return {
    ...totals,
    entries: entries.map((entry) =>
      entry.result === undefined
        ? {
            file: entry.file,
            ...(entry.sessionId === undefined ? {} : { sessionId: entry.sessionId }),
            error: entry.error,
          }
        : {
            ...replayJson(entry.file, entry.result),
            ...(entry.sessionId === undefined ? {} : { sessionId: entry.sessionId }),
          },
    ),
  };
}
