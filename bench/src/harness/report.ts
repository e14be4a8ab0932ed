import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchTable, BenchTarget, SuiteResult } from './types.js';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
}

/** What is stored per suite in `bench/results/<id>.json`. */
export interface StoredResult {
  id: string;
  title: string;
  description: string;
  date: string;
  machine: MachineInfo;
  /** The machine's 1-minute load average when the suite started and when it ended (older results have none). */
  load?: { start: number; end: number };
  /** How long the suite ran, seconds. */
  seconds?: number;
  result: SuiteResult;
}

function renderTable(table: BenchTable): string {
  const head = `| ${table.columns.join(' | ')} |`;
  const rule = `| ${table.columns.map(() => '---').join(' | ')} |`;
  const rows = table.rows.map((row) => `| ${row.join(' | ')} |`);
  return [`**${table.caption}**`, '', head, rule, ...rows].join('\n');
}

function renderSuite(stored: StoredResult): string {
  const m = stored.machine;
  const parts = [
    `## ${stored.title}`,
    '',
    stored.description,
    '',
    `Run ${stored.date} on ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node} (${m.platform})${loadText(stored)}. Raw figures: \`bench/results/${stored.id}.json\`.`,
    '',
  ];
  for (const table of stored.result.tables) parts.push(renderTable(table), '');
  for (const note of stored.result.notes ?? []) parts.push(`- ${note}`);
  return parts.join('\n').trimEnd();
}

/** Every stored suite's targets in one table, so a reader sees at once what is met. */
/** How busy the machine was: a figure taken under load says so beside itself. */
function loadText(stored: StoredResult): string {
  if (stored.load === undefined) return '';
  const took = stored.seconds === undefined ? '' : `, ${Math.round(stored.seconds)} s`;
  return `; load average ${stored.load.start.toFixed(2)} at the start, ${stored.load.end.toFixed(2)} at the end${took}`;
}

function renderTargets(stored: StoredResult[]): string {
  const rows: string[][] = [];
  for (const suite of stored) {
    for (const target of suite.result.targets ?? []) rows.push(targetRow(suite, target));
  }
  if (rows.length === 0) return '';
  return [
    '## Targets',
    '',
    'Every target with its verdict, from the run each suite records below (`met`: the median is within the limit; `missed`: it is not; `noise`: the median and its spread disagree). A target not met says why.',
    '',
    renderTable({
      caption: 'Targets',
      columns: ['suite', 'target', 'limit', 'measured', 'verdict', 'why'],
      rows,
    }),
  ].join('\n');
}

function targetRow(suite: StoredResult, target: BenchTarget): string[] {
  return [
    `\`${suite.id}\` (${suite.date})`,
    target.target,
    target.limit,
    target.measured,
    target.verdict,
    target.why ?? '',
  ];
}

/** Builds `docs/benchmarks.md` from every stored result, in the order of `order`. */
export function renderReport(resultsDir: string, order: readonly string[]): string {
  const stored = readdirSync(resultsDir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(join(resultsDir, file), 'utf8')) as StoredResult);
  stored.sort((a, b) => rank(order, a.id) - rank(order, b.id));
  const header = [
    '# Benchmarks',
    '',
    'Written by `pnpm bench` (`bench/src/run.ts`); do not edit by hand. Each section says when and',
    'where it ran. Speed and memory are measured here, never in timed tests: the machines are',
    'shared and noisy, so every figure is a median over several runs with its min-max spread.',
    '',
  ];
  return `${[header.join('\n'), renderTargets(stored), ...stored.map(renderSuite)].join('\n\n').replace(/\n{3,}/g, '\n\n')}\n`;
}

function rank(order: readonly string[], id: string): number {
  const index = order.indexOf(id);
  return index === -1 ? order.length : index;
}
