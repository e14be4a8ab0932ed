// The capacity suite's tables: per-turn figures with their spread over the measured windows,
// Redis commands per turn by command, and one Redis server's ceiling.

import { formatNumber, formatSpread, type Spread, spread } from '../harness/measure.js';
import type { BenchTable } from '../harness/types.js';
import type { CeilingRun } from './redis-ceiling.js';
import type { WindowFigures } from './window.js';

/** Every per-unit figure of the model, each a spread over the windows. */
export interface PerTurnFigures {
  redisCommandsPerTurn: Spread;
  redisInBytesPerTurn: Spread;
  redisOutBytesPerTurn: Spread;
  redisCpuMsPerTurn: Spread;
  workerCpuMsPerTurn: Spread;
  faceCpuMsPerToken: Spread;
  faceCpuMsPerSession: Spread;
  sessionsPerSecond: Spread;
}

function totalCalls(window: WindowFigures): number {
  return Object.values(window.redis.commands).reduce((sum, c) => sum + c.calls, 0);
}

export function perTurnFigures(windows: readonly WindowFigures[]): PerTurnFigures {
  const of = (value: (w: WindowFigures) => number) => spread(windows.map(value));
  return {
    redisCommandsPerTurn: of((w) => totalCalls(w) / w.turns),
    redisInBytesPerTurn: of((w) => w.redis.netInputBytes / w.turns),
    redisOutBytesPerTurn: of((w) => w.redis.netOutputBytes / w.turns),
    redisCpuMsPerTurn: of((w) => w.redis.cpuMs / w.turns),
    workerCpuMsPerTurn: of((w) => w.workerCpuMs / w.turns),
    faceCpuMsPerToken: of((w) => w.faceCpuMs / w.tokens),
    faceCpuMsPerSession: of((w) => w.faceCpuMs / w.sessions),
    sessionsPerSecond: of((w) => w.sessions / w.seconds),
  };
}

export function perTurnTable(figures: PerTurnFigures, runs: number): BenchTable {
  const row = (what: string, s: Spread, digits = 2): (string | number)[] => [what, formatSpread(s, digits)];
  return {
    caption: `Cost per session turn (median and min-max over ${runs} windows)`,
    columns: ['figure', 'median (min-max)'],
    rows: [
      row('Redis commands per turn (INFO commandstats)', figures.redisCommandsPerTurn, 1),
      row('Redis bytes in per turn (total_net_input_bytes)', figures.redisInBytesPerTurn, 0),
      row('Redis bytes out per turn (total_net_output_bytes)', figures.redisOutBytesPerTurn, 0),
      row('Redis server CPU ms per turn (INFO cpu)', figures.redisCpuMsPerTurn, 3),
      row('worker CPU ms per turn (/proc/<pid>/stat)', figures.workerCpuMsPerTurn),
      row('face CPU ms per streamed token (/proc/<pid>/stat)', figures.faceCpuMsPerToken, 3),
      row('face CPU ms per session (all of it)', figures.faceCpuMsPerSession),
      row('sessions per second (wall, shared machine)', figures.sessionsPerSecond),
    ],
  };
}

/** Calls and server microseconds per turn of each command, most called first. */
export function commandsTable(windows: readonly WindowFigures[]): BenchTable {
  const names = [...new Set(windows.flatMap((w) => Object.keys(w.redis.commands)))];
  const per = (name: string, key: 'calls' | 'usec') =>
    spread(windows.map((w) => (w.redis.commands[name]?.[key] ?? 0) / w.turns));
  const rows = names
    .map((name) => ({ name, calls: per(name, 'calls'), usec: per(name, 'usec') }))
    .sort((a, b) => b.calls.median - a.calls.median)
    .map(({ name, calls, usec }) => [name, formatSpread(calls, 2), formatSpread(usec, 1)]);
  return {
    caption: 'Redis commands per session turn, by command',
    columns: ['command', 'calls per turn', 'server µs per turn'],
    rows,
  };
}

export function ceilingTable(runs: readonly CeilingRun[]): BenchTable {
  return {
    caption: 'One redis-server on this machine: redis-benchmark, 50 clients, no pipelining',
    columns: ['command', 'requests', 'requests/s (wall)', 'requests per Redis CPU-second'],
    rows: runs.map((r) => [
      r.command,
      r.requests,
      formatNumber(r.wallPerSecond, 0),
      formatNumber(r.perCpuSecond, 0),
    ]),
  };
}

/** What one core of each part carries, from the medians. */
export function perCoreTable(figures: PerTurnFigures, tokensPerTurn: number): BenchTable {
  const per = (ms: number) => formatNumber(1000 / ms, 0);
  return {
    caption: `What one busy core carries (1000 ms / the median cost; ${formatNumber(tokensPerTurn, 1)} streamed tokens per turn on average here)`,
    columns: ['part', 'per core-second'],
    rows: [
      ['Redis server', `${per(figures.redisCpuMsPerTurn.median)} turns`],
      ['worker', `${per(figures.workerCpuMsPerTurn.median)} turns`],
      ['face', `${per(figures.faceCpuMsPerToken.median)} tokens`],
    ],
  };
}
