// The agent-loop report: figure tables, ratios, targets and the profile, from the figures.
import { comparisonRows } from '../harness/comparison-rows.js';
import { formatNumber, formatSpread, type Spread } from '../harness/measure.js';
import type { BenchTable } from '../harness/types.js';
import {
  CORE_ID,
  CORE_TRACED_ID,
  type ContenderInfo,
  isPeer,
  RAW_LOOP_ID,
  RAW_LOOP_XML_ID,
} from './contenders/index.js';
import { type Figures, pairedRatio, ratio } from './figures.js';
import type { ProfileData } from './orchestrate.js';
import { versionsOf } from './versions.js';

export interface ReportInput {
  contenders: readonly ContenderInfo[];
  figures: readonly Figures[];
  turns: readonly number[];
  counts: readonly number[];
  startMs: ReadonlyMap<string, number>;
}

const LABEL_NOTES: Record<string, string> = {
  'raw-loop': ' (floor)',
  'agent-core-traced': ' (tracing on)',
  'agent-core-unwatched': ' (no event listener)',
  'raw-loop-xml': " (agent-core's notice and FINAL tag, no runtime)",
  'ai-sdk-generate': ' (own fetch client; not streamed)',
  'ai-sdk-stream': ' (own fetch client)',
};

export function label(id: string): string {
  return `${id}${LABEL_NOTES[id] ?? ''}`;
}

function cell(value: Spread | undefined, digits = 2): string {
  if (value === undefined) return 'n/a';
  if (value.min >= 0) return formatSpread(value, digits);
  // A negative bound would read as a range of dashes.
  const [median, min, max] = [value.median, value.min, value.max].map((v) => formatNumber(v, digits));
  return `${median} (${min} to ${max})`;
}

function times(value: number): string {
  return Number.isFinite(value) && value > 0 ? `${formatNumber(value, 2)}x` : 'n/a';
}

/** A paired ratio as `1.23x (1.10-1.40)`. */
function pairedCell(a: readonly number[] | undefined, b: readonly number[] | undefined): string {
  const paired = pairedRatio(a, b);
  if (paired === undefined) return 'n/a';
  return `${times(paired.median)} (${formatNumber(paired.min, 2)}-${formatNumber(paired.max, 2)})`;
}

function find(figures: readonly Figures[], id: string): Figures | undefined {
  return figures.find((f) => f.id === id);
}

export function contendersTable(input: ReportInput): BenchTable {
  return {
    caption: 'Contenders (each in its own process; versions read from their package.json at run time)',
    columns: ['contender', 'packages', 'how it reaches the server', 'streamed events counted', 'load ms'],
    rows: input.contenders.map((c) => [
      c.id,
      versionsOf(c.packages).join(', '),
      c.transport,
      c.events,
      formatNumber(input.startMs.get(c.id) ?? Number.NaN, 0),
    ]),
  };
}

/** How many runs each figure is a median of, as the captions say it. */
export interface RunsText {
  cpuRuns: string;
  memoryRuns: string;
}

/** What every figure table reads: the figures, the raw loop's (the ratios' floor), the largest N and K. */
interface FigureScope {
  input: ReportInput;
  runs: RunsText;
  raw: Figures | undefined;
  maxTurns: number;
  maxCount: number;
}

function cpuTable({ input, runs, raw }: FigureScope): BenchTable {
  const { figures, turns } = input;
  const xml = find(figures, RAW_LOOP_XML_ID);
  return {
    caption: `CPU per turn, ms of the contender's process (median (min-max); ${runs.cpuRuns}); a turn is one model call and the work after it. "x raw-loop" and "x raw-loop-xml" are the median (min-max) of the ratios of runs made back to back`,
    columns: [
      'contender',
      ...turns.map((n) => `N=${n}`),
      ...turns.map((n) => `x raw-loop, N=${n}`),
      ...turns.map((n) => `x raw-loop-xml, N=${n}`),
    ],
    rows: figures.map((f) => [
      label(f.id),
      ...turns.map((n) => cell(f.cpuPerTurnMs.get(n), 3)),
      ...turns.map((n) => pairedCell(f.cpuPerTurnRuns.get(n), raw?.cpuPerTurnRuns.get(n))),
      ...turns.map((n) => pairedCell(f.cpuPerTurnRuns.get(n), xml?.cpuPerTurnRuns.get(n))),
    ]),
  };
}

function wallTable({ input, runs, raw, maxTurns }: FigureScope): BenchTable {
  const { figures, turns } = input;
  return {
    caption: `Wall time per session, ms (median (min-max); ${runs.cpuRuns})`,
    columns: ['contender', ...turns.map((n) => `N=${n}`), `x raw-loop, N=${maxTurns}`],
    rows: figures.map((f) => [
      label(f.id),
      ...turns.map((n) => cell(f.wallPerSessionMs.get(n), 1)),
      times(ratio(f.wallPerSessionMs.get(maxTurns), raw?.wallPerSessionMs.get(maxTurns))),
    ]),
  };
}

function memoryTable({ input, runs, raw, maxCount }: FigureScope): BenchTable {
  const { figures, counts } = input;
  const rawHeap = raw?.heapPerSessionKB.get(maxCount)?.median ?? Number.NaN;
  return {
    caption: `Memory per concurrent in-flight session, KB (median (min-max); ${runs.memoryRuns})`,
    columns: [
      'contender',
      ...counts.map((k) => `heap, K=${k}`),
      ...counts.map((k) => `RSS, K=${k}`),
      `heap above raw-loop, K=${maxCount}`,
    ],
    rows: figures.map((f) => [
      label(f.id),
      ...counts.map((k) => cell(f.heapPerSessionKB.get(k), 1)),
      ...counts.map((k) => cell(f.rssPerSessionKB.get(k), 1)),
      formatNumber((f.heapPerSessionKB.get(maxCount)?.median ?? Number.NaN) - rawHeap, 1),
    ]),
  };
}

function eventsTable({ input, runs, raw, maxTurns }: FigureScope): BenchTable {
  const { figures, turns } = input;
  return {
    caption: `Streamed events per second of session wall time (median (min-max); ${runs.cpuRuns})`,
    columns: [
      'contender',
      `events per session, N=${maxTurns}`,
      ...turns.map((n) => `events/s, N=${n}`),
      `x raw-loop, N=${maxTurns}`,
    ],
    rows: figures.map((f) => {
      const streams = input.contenders.find((c) => c.id === f.id)?.streams ?? true;
      return [
        label(f.id),
        streams ? formatNumber(f.eventsPerSession.get(maxTurns) ?? Number.NaN, 0) : 'n/a',
        ...turns.map((n) => (streams ? cell(f.eventsPerSecond.get(n), 0) : 'n/a (not streamed)')),
        streams ? times(ratio(f.eventsPerSecond.get(maxTurns), raw?.eventsPerSecond.get(maxTurns))) : 'n/a',
      ];
    }),
  };
}

/** CPU per turn, wall time per session, memory per session and streamed events per second. */
export function figureTables(input: ReportInput, runs: RunsText): BenchTable[] {
  const scope: FigureScope = {
    input,
    runs,
    raw: find(input.figures, RAW_LOOP_ID),
    maxTurns: Math.max(...input.turns),
    maxCount: Math.max(...input.counts),
  };
  return [cpuTable(scope), wallTable(scope), memoryTable(scope), eventsTable(scope)];
}

/**
 * What tracing costs: agent-core's CPU per turn with tracing off (no tracer provider: the one
 * check per session) and on (agent-core-traced), and the paired ratio of the two.
 */
export function tracingTable(input: ReportInput): BenchTable | undefined {
  const { figures, turns } = input;
  const off = find(figures, CORE_ID);
  const on = find(figures, CORE_TRACED_ID);
  if (off === undefined || on === undefined) return undefined;
  return {
    caption:
      'Tracing overhead: agent-core CPU per turn, ms, with tracing off (no tracer provider registered) and on (every session traced into a NodeTracerProvider with a BatchSpanProcessor); "on / off" is the median (min-max) of the ratios of runs made back to back',
    columns: ['N', 'tracing off', 'tracing on', 'on / off', 'on - off, us per turn'],
    rows: turns.map((n) => [
      n,
      cell(off.cpuPerTurnMs.get(n), 3),
      cell(on.cpuPerTurnMs.get(n), 3),
      pairedCell(on.cpuPerTurnRuns.get(n), off.cpuPerTurnRuns.get(n)),
      formatNumber(
        ((on.cpuPerTurnMs.get(n)?.median ?? Number.NaN) - (off.cpuPerTurnMs.get(n)?.median ?? Number.NaN)) *
          1000,
        0,
      ),
    ]),
  };
}

export function ratioTable(input: ReportInput): BenchTable {
  const { figures, turns, counts } = input;
  const n = Math.max(...turns);
  const k = Math.max(...counts);
  const streams = (id: string) => input.contenders.find((c) => c.id === id)?.streams ?? true;
  const metrics: { name: string; pick: (f: Figures) => Spread | undefined; streamsOnly?: boolean }[] = [
    { name: `CPU per turn, N=${n}`, pick: (f) => f.cpuPerTurnMs.get(n) },
    { name: `wall per session, N=${n}`, pick: (f) => f.wallPerSessionMs.get(n) },
    { name: `heap per session, K=${k}`, pick: (f) => f.heapPerSessionKB.get(k) },
    { name: `RSS per session, K=${k}`, pick: (f) => f.rssPerSessionKB.get(k) },
    { name: `events/s, N=${n}`, pick: (f) => f.eventsPerSecond.get(n), streamsOnly: true },
  ];
  const rows: (string | number)[][] = [];
  for (const metric of metrics) {
    for (const row of figures) {
      rows.push([
        metric.name,
        row.id,
        ...figures.map((column) =>
          metric.streamsOnly && (!streams(row.id) || !streams(column.id))
            ? 'n/a'
            : times(ratio(metric.pick(row), metric.pick(column))),
        ),
      ]);
    }
  }
  return {
    caption: 'Ratios of medians: the row contender divided by the column contender',
    columns: ['figure', 'contender', ...figures.map((f) => `/ ${f.id}`)],
    rows,
  };
}

export interface TargetOutcome {
  name: string;
  measured: string;
  met: boolean;
}

/** The targets of earlier passes kept beside issue 42's (`targets.ts`): agent-core below every peer. */
export function peerTargets(input: ReportInput): TargetOutcome[] {
  const { figures, turns } = input;
  const core = find(figures, CORE_ID);
  const peers = figures.filter((f) => isPeer(f.id));
  const cheapestOf = (candidates: readonly Figures[], n: number) =>
    candidates
      .map((p) => ({ id: p.id, ms: p.cpuPerTurnMs.get(n)?.median ?? Number.NaN }))
      .sort((a, b) => a.ms - b.ms)[0];
  const streamingPeers = peers.filter((p) => input.contenders.find((c) => c.id === p.id)?.streams ?? true);
  const belowPeers = turns.map((n) => {
    const mine = core?.cpuPerTurnMs.get(n)?.median ?? Number.NaN;
    const cheapest = cheapestOf(peers, n);
    const cheapestStreaming = cheapestOf(streamingPeers, n);
    return {
      n,
      mine,
      cheapest,
      met: cheapest !== undefined && mine < cheapest.ms,
      belowStreaming: cheapestStreaming !== undefined && mine < cheapestStreaming.ms,
    };
  });
  return [
    {
      name: 'agent-core CPU per turn below every peer (every N)',
      measured: belowPeers
        .map(
          (b) =>
            `N=${b.n}: ${formatNumber(b.mine, 3)} ms vs ${b.cheapest === undefined ? 'n/a' : `${b.cheapest.id} ${formatNumber(b.cheapest.ms, 3)} ms`}`,
        )
        .join('; ')
        .concat(
          belowPeers.every((b) => b.belowStreaming)
            ? '; below every streaming peer at every N'
            : '; not below every streaming peer either',
        ),
      met: belowPeers.every((b) => b.met),
    },
  ];
}

export function targetsTable(outcomes: readonly TargetOutcome[], quick: boolean): BenchTable {
  return {
    caption: quick
      ? 'Other targets (quick run: one run each, not meaningful)'
      : "Other targets (issue 42's are at the top of this report)",
    columns: ['target', 'measured (medians)', 'met'],
    rows: outcomes.map((t) => [t.name, t.measured, t.met ? 'yes' : 'NO']),
  };
}

/** Rows of the per-function profile tables. */
const TOP_FUNCTIONS = 15;

/** A function name as a table cell: pipes escaped, long ones (regular expressions) cut. */
export function code(name: string): string {
  const short = name.length > 90 ? `${name.slice(0, 87)}...` : name;
  return `\`${short.replaceAll('|', '\\|')}\``;
}

function microsPerTurn(ms: number, profile: ProfileData): string {
  return formatNumber((ms * 1000) / profile.modelCalls, 0);
}

/** Where agent-core's CPU goes, beside the raw loop profiled the same way. */
export function profileTables(core: ProfileData, raw: ProfileData | undefined): BenchTable[] {
  const scope = core.summary.windowed ? 'measured runs only' : 'whole process (the window did not match)';
  const where = `node --cpu-prof, N=${core.plan.turns}, ${core.plan.sessions} sessions, ${core.modelCalls} turns; ${scope}`;
  const areaNames = new Set(core.summary.areas.map((a) => a.area));
  for (const area of raw?.summary.areas ?? []) areaNames.add(area.area);
  const areaMs = (profile: ProfileData | undefined, area: string) =>
    profile?.summary.areas.find((a) => a.area === area)?.ms ?? 0;
  const areaRows = [...areaNames]
    .map((area) => ({
      area,
      core: (areaMs(core, area) * 1000) / core.modelCalls,
      raw: raw === undefined ? Number.NaN : (areaMs(raw, area) * 1000) / raw.modelCalls,
    }))
    .sort((a, b) => b.core - a.core);
  const total = (profile: ProfileData | undefined) =>
    profile === undefined ? Number.NaN : (profile.summary.busyMs * 1000) / profile.modelCalls;
  return [
    {
      caption: `Profile: CPU per turn by area, microseconds (${where}; the raw loop profiled the same way)`,
      columns: ['area', `${core.id} us/turn`, `${raw?.id ?? 'raw-loop'} us/turn`, 'difference'],
      rows: comparisonRows(
        areaRows.map((row) => ({ label: row.area, a: row.core, b: row.raw })),
        { label: 'total (busy)', a: total(core), b: total(raw) },
      ),
    },
    {
      caption: `Profile: ${core.id} top self time by function (${where})`,
      columns: ['function', 'area', 'us/turn', '% of busy'],
      rows: core.summary.functions
        .slice(0, TOP_FUNCTIONS)
        .map((f) => [code(f.name), f.area, microsPerTurn(f.ms, core), formatNumber(f.percent, 1)]),
    },
    {
      caption: `Profile: ${core.id} self time charged to the nearest @agent function on the stack (what project code makes the SDK, HTTP stack and runtime do; async continuations have no project frame)`,
      columns: ['nearest @agent function', 'us/turn', '% of busy'],
      rows: core.summary.byProjectCaller
        .slice(0, TOP_FUNCTIONS)
        .map((f) => [
          f.area === '' ? f.name : code(f.name),
          microsPerTurn(f.ms, core),
          formatNumber(f.percent, 1),
        ]),
    },
  ];
}
