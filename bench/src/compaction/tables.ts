// The compaction suite's table and checks: the two sessions side by side, one row per figure.
import type { CompactionRun } from '@agent/protocol';
import { formatNumber, median, percentile } from '../harness/measure.js';
import type { BenchCheck, BenchTable } from '../harness/types.js';
import { fullReport } from './script.js';
import { CONTEXT_WINDOW, MAX_OUTPUT_TOKENS, type SessionFigures } from './session.js';

export interface TokenSpread {
  requests: number;
  max: number;
  mean: number;
  p95: number;
  total: number;
}

export function tokenSpread(values: readonly number[]): TokenSpread {
  const sorted = [...values].sort((a, b) => a - b);
  const total = values.reduce((sum, value) => sum + value, 0);
  return {
    requests: values.length,
    max: sorted[sorted.length - 1] ?? 0,
    mean: values.length === 0 ? 0 : total / values.length,
    p95: percentile(sorted, 95),
    total,
  };
}

/** The page sizes the session reads, as the caption says them. */
const TOOL_PAGES = '3-14 KB';
const int = (value: number): string => formatNumber(value, 0);

function outcome(f: SessionFigures): string {
  return `${f.exitCode}${f.success ? '' : ' (failed)'}: "${f.reportLine}"`;
}

function forced(f: SessionFigures): string {
  return f.forcedFinal === undefined ? 'none' : `turn ${f.forcedFinal.turn} (\`${f.forcedFinal.reason}\`)`;
}

function compactionCounts(runs: readonly CompactionRun[]): string {
  const compacted = runs.filter((r) => r.outcome === 'compacted').length;
  return `${runs.length} (${compacted} compacted, ${runs.length - compacted} failed)`;
}

function beforeAfter(runs: readonly CompactionRun[]): string {
  const done = runs.filter((r) => r.outcome === 'compacted');
  if (done.length === 0) return 'n/a';
  return `${int(median(done.map((r) => r.beforeTokens)))} → ${int(median(done.map((r) => r.afterTokens)))}`;
}

/** Input tokens of every request the session made: its turns and its summary calls. */
function tokensSent(f: SessionFigures): number {
  return [...f.requestTokens, ...f.summaryCalls.map((c) => c.input)].reduce((sum, n) => sum + n, 0);
}

function summaryTokens(f: SessionFigures): string {
  if (f.summaryCalls.length === 0) return '0';
  const input = f.summaryCalls.reduce((sum, c) => sum + c.input, 0);
  const output = f.summaryCalls.reduce((sum, c) => sum + c.output, 0);
  return `${int(input)} in, ${int(output)} out (${int(input / f.summaryCalls.length)} in per call)`;
}

/** One row per figure, the session with compaction beside the one without. */
export function sideBySideTable(sessions: readonly SessionFigures[], reportTurn: number): BenchTable {
  const spreads = sessions.map((f) => tokenSpread(f.requestTokens));
  const row = (label: string, cell: (f: SessionFigures, i: number) => string): string[] => [
    label,
    ...sessions.map((f, i) => cell(f, i)),
  ];
  return {
    caption: `A ${reportTurn}-turn session (a ${TOOL_PAGES} page per turn, report on turn ${reportTurn}) in a ${int(CONTEXT_WINDOW)}-token window, one run`,
    columns: ['', ...sessions.map((f) => (f.compaction ? '`compaction: true`' : 'no compaction'))],
    rows: [
      row('how it ended', (f) => outcome(f)),
      row('last turn started', (f) => int(f.lastTurn)),
      row('forced final turn', (f) => forced(f)),
      row('session requests', (_f, i) => int(spreads[i]!.requests)),
      row('input tokens per request: max', (_f, i) => int(spreads[i]!.max)),
      row('input tokens per request: mean', (_f, i) => int(spreads[i]!.mean)),
      row('input tokens per request: p95', (_f, i) => int(spreads[i]!.p95)),
      row(
        'largest request, % of the window',
        (_f, i) => `${formatNumber((100 * spreads[i]!.max) / CONTEXT_WINDOW, 1)}%`,
      ),
      row('compactions', (f) => compactionCounts(f.compactions)),
      row('tokens before → after a compaction (median)', (f) => beforeAfter(f.compactions)),
      row('summary calls', (f) => int(f.summaryCalls.length)),
      row('summary call tokens', (f) => summaryTokens(f)),
      row('input tokens sent in all (session + summaries)', (f) => int(tokensSent(f))),
      row('input tokens sent per page read', (f) => int(tokensSent(f) / Math.max(1, f.lastTurn - 1))),
      row('requests refused by the strict server', (f) => int(f.rejected)),
      row('wall time', (f) => `${formatNumber(f.wallMs / 1000, 2)} s`),
      row(
        'CPU (session, client and server; server token counting excluded)',
        (f) => `${formatNumber(f.cpuMs / 1000, 2)} s`,
      ),
    ],
  };
}

/** What each session must show for the suite to pass. */
export function sessionChecks(sessions: readonly SessionFigures[], reportTurn: number): BenchCheck[] {
  const checks: BenchCheck[] = [];
  for (const f of sessions) {
    const label = f.compaction ? 'with compaction' : 'without compaction';
    const spread = tokenSpread(f.requestTokens);
    checks.push({
      name: `${label}: every request and its answer fit the ${int(CONTEXT_WINDOW)}-token window`,
      ok: spread.max + MAX_OUTPUT_TOKENS <= CONTEXT_WINDOW,
      detail: `largest request ${int(spread.max)} tokens + ${MAX_OUTPUT_TOKENS} output`,
    });
    checks.push({
      name: `${label}: the strict server refused no request (every tool call kept its result)`,
      ok: f.rejected === 0,
      detail: `${f.rejected} refused`,
    });
    if (f.compaction) {
      checks.push({
        name: `${label}: the session completes with its full report on turn ${reportTurn}`,
        ok:
          f.success &&
          f.exitCode === 'EXIT-FINAL-ANSWER' &&
          f.reportLine === fullReport(reportTurn) &&
          f.lastTurn === reportTurn &&
          f.forcedFinal === undefined,
        detail: `${outcome(f)}; last turn ${f.lastTurn}; forced final ${forced(f)}`,
      });
      checks.push({
        name: `${label}: it compacted, and every summary call is accounted`,
        ok:
          f.compactions.some((r) => r.outcome === 'compacted') &&
          f.summaryCalls.length === f.summaryRequests &&
          f.summaryCalls.length >= f.compactions.length,
        detail: `${compactionCounts(f.compactions)}; ${f.summaryCalls.length} accounted, ${f.summaryRequests} received`,
      });
    } else {
      checks.push({
        name: `${label}: the context guard forces the final turn before turn ${reportTurn}`,
        ok: f.forcedFinal?.reason === 'context' && f.lastTurn < reportTurn && f.compactions.length === 0,
        detail: `forced final ${forced(f)}; ${outcome(f)}`,
      });
    }
  }
  return checks;
}
