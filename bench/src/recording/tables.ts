// The recording suite's tables and checks, from the figures of its configurations.
import { pairedRatio } from '../agent-loop/figures.js';
import { formatNumber, formatSpread, median, spread } from '../harness/measure.js';
import type { BenchCheck, BenchTable } from '../harness/types.js';
import type { ConfigFigures } from './measure-config.js';

const TRANSPORT_LABEL = {
  'in-process': 'in-process scriptedModel',
  http: 'testkit server over HTTP (openai client)',
} as const;

function label(config: ConfigFigures): string {
  return `${config.transport}, N=${config.pages}`;
}

const percent = (part: number, whole: number) => `${formatNumber((100 * part) / whole, 1)}%`;

export function costTable(configs: readonly ConfigFigures[]): BenchTable {
  return {
    caption:
      'CPU per turn (process.cpuUsage over a batch of sessions, record writes included, / model calls) and wall time per session, without and with recording: median (min-max) over the batches; ratio = recorded / unrecorded, paired batch by batch',
    columns: [
      'model',
      'N',
      'turns',
      'batches x sessions',
      'CPU ms/turn, not recorded',
      'CPU ms/turn, recorded',
      'CPU ratio',
      'wall ms/session, not recorded',
      'wall ms/session, recorded',
    ],
    rows: configs.map((config) => {
      const sessionsPerBatch = config.sessionWallMs.off.length / config.cpuPerTurn.off.length;
      const ratio = pairedRatio(config.cpuPerTurn.on, config.cpuPerTurn.off);
      return [
        TRANSPORT_LABEL[config.transport],
        config.pages,
        config.turns,
        `${config.cpuPerTurn.off.length} x ${sessionsPerBatch}`,
        formatSpread(spread(config.cpuPerTurn.off), 3),
        formatSpread(spread(config.cpuPerTurn.on), 3),
        ratio === undefined ? 'n/a' : formatSpread(ratio, 2),
        formatNumber(median(config.sessionWallMs.off), 1),
        formatNumber(median(config.sessionWallMs.on), 1),
      ];
    }),
  };
}

export function sizeTable(configs: readonly ConfigFigures[]): BenchTable {
  return {
    caption:
      "A session's record (`<sessionId>.json.gz`): bytes per turn on disk (gzip) and as JSON, and the share the tapes take (JSON: the tapes' own JSON; gzip: what the file loses compressed without them); medians over the records read",
    columns: [
      'model',
      'N',
      'records read',
      'gzip B/turn',
      'JSON B/turn',
      'gzip B/session',
      'JSON B/session',
      'tapes, share of JSON',
      'tapes, share of gzip',
    ],
    rows: configs.map(({ size, turns, ...config }) => [
      TRANSPORT_LABEL[config.transport],
      config.pages,
      size.records,
      formatNumber(size.gzipBytes / turns, 0),
      formatNumber(size.jsonBytes / turns, 0),
      formatNumber(size.gzipBytes, 0),
      formatNumber(size.jsonBytes, 0),
      percent(size.tapeJsonBytes, size.jsonBytes),
      percent(size.gzipBytes - size.gzipBytesWithoutTapes, size.gzipBytes),
    ]),
  };
}

export function replayTable(configs: readonly ConfigFigures[]): BenchTable {
  return {
    caption:
      "`replay()` of a recorded 20-turn session (`compare: 'requests'`, tools answered from the record): wall and CPU ms per replay, median (min-max), beside the recorded session's own wall time",
    columns: [
      'record made with',
      'replays',
      'wall ms',
      'CPU ms',
      'model calls',
      'verdict',
      'recorded session wall ms',
    ],
    rows: configs.flatMap((config) => {
      const replay = config.replay;
      if (replay === undefined) return [];
      const runs = replay.wallMs.length;
      return [
        [
          TRANSPORT_LABEL[config.transport],
          runs,
          formatSpread(spread(replay.wallMs), 1),
          formatSpread(spread(replay.cpuMs), 1),
          replay.modelCalls,
          replay.matched === runs ? `match (${runs}/${runs})` : `DIVERGED: ${replay.firstDivergence}`,
          formatNumber(median(config.sessionWallMs.on), 1),
        ],
      ];
    }),
  };
}

export function configChecks(config: ConfigFigures): BenchCheck[] {
  const name = label(config);
  const { size, replay } = config;
  const checks: BenchCheck[] = [
    {
      name: `${name}: every session, recorded or not, committed the scripted report`,
      ok: config.wrong.length === 0,
      detail: `${config.sessions.off + config.sessions.on} sessions${config.wrong.length === 0 ? '' : `; first wrong: ${config.wrong[0]}`}`,
    },
    {
      name: `${name}: the page API answered one call per page of every session`,
      ok: config.apiHits.seen === config.apiHits.expected,
      detail: `${config.apiHits.seen} of ${config.apiHits.expected}`,
    },
    {
      name: `${name}: one record per recorded session, each with its ${config.turns} model calls on the tape and its payloads`,
      ok:
        size.files === config.sessions.on &&
        size.records > 0 &&
        size.modelCalls === config.turns &&
        size.payloadsDropped === 0,
      detail: `${size.files} records for ${config.sessions.on} sessions, ${size.modelCalls} calls on the median tape, ${size.payloadsDropped} without payloads`,
    },
  ];
  if (config.transport === 'http')
    checks.push({
      name: `${name}: the strict model server refused no request`,
      ok: config.rejected === 0,
      detail: `${config.rejected} refused`,
    });
  if (replay !== undefined)
    checks.push(
      {
        name: `${name}: replay() of a record matched it under 'requests' every time`,
        ok: replay.wallMs.length > 0 && replay.matched === replay.wallMs.length,
        detail: `${replay.matched} of ${replay.wallMs.length}${replay.firstDivergence === undefined ? '' : `; ${replay.firstDivergence}`}`,
      },
      {
        name: `${name}: the replay made the ${config.turns} model calls and answered the tools from the record (no page API call)`,
        ok: replay.modelCalls === config.turns && replay.apiHitsDuring === 0,
        detail: `${replay.modelCalls} model calls, ${replay.apiHitsDuring} page API calls`,
      },
    );
  return checks;
}
