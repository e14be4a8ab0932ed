// The response cache's hit path against a model call: an agent file run through the runtime
// (`createAgentRunner`), its model the testkit server on loopback. A miss is one real HTTP model
// call; a hit is a lookup in the store (SQLite file, or a real redis-server) and the replay of
// the stored report. Latency per run (median and p99), and the store's own lookup beside it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type CacheStoreConfig, createCache, openCacheBackend } from '@agent/cache';
import { createAgentRunner } from '@agent/runtime';
import type { ModelServer, RedisServer } from '@agent/testkit';
import { finalReport, startModelServer, startRedisServer } from '@agent/testkit';
import { formatNumber, percentile } from '../harness/measure.js';
import type { BenchCheck, BenchSuite, BenchTable, SuiteResult } from '../harness/types.js';

const REPORT = 'The answer is 42. '.repeat(40); // ~700 characters, a short report

interface Figures {
  label: string;
  median: number;
  p99: number;
  runs: number;
}

function figures(label: string, times: number[]): Figures {
  const sorted = [...times].sort((a, b) => a - b);
  return { label, median: percentile(sorted, 50), p99: percentile(sorted, 99), runs: times.length };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** One agent tree in a temp dir, caching answers in the given store. */
function agentDir(store: CacheStoreConfig | undefined, modelUrl: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-cache-'));
  mkdirSync(join(dir, 'empty'));
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({
      providers: { local: { type: 'openai-compatible', baseURL: `${modelUrl}/v1` } },
      ...(store === undefined ? {} : { cache: store }),
    }),
  );
  writeFileSync(
    join(dir, 'a.ai'),
    `---\nmodels: [local/m]\n${store === undefined ? '' : 'cache: 1h\n'}---\nYou answer questions.\n`,
  );
  return dir;
}

/** Timed runs of each path, after warm-up runs that are not timed. */
interface RunPlan {
  runs: number;
  warmup: number;
}

/** A path's timings and the check that it took the path it names. */
interface TimedPath {
  figures: Figures;
  check: BenchCheck;
}

function openRunner(dir: string) {
  return createAgentRunner(join(dir, 'a.ai'), {
    cwd: dir,
    env: {},
    userConfigDir: join(dir, 'empty'),
    systemConfigDir: join(dir, 'empty'),
  });
}

/** A redis-server for the Redis store, or undefined (and a note why) where none starts. */
async function startRedisOrNote(notes: string[]): Promise<RedisServer | undefined> {
  try {
    return await startRedisServer();
  } catch (error) {
    notes.push(`Redis skipped: ${(error as Error).message}`);
    return undefined;
  }
}

/** Model calls: every run a new prompt, so every run calls the model. */
async function timeModelCalls(dir: string, server: ModelServer, plan: RunPlan): Promise<TimedPath> {
  const { runs, warmup } = plan;
  const plain = await openRunner(dir);
  try {
    let n = 0;
    for (let i = 0; i < warmup; i++) await plain.run(`warm-up ${i}`);
    const before = server.calls;
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(await timed(() => plain.run(`question ${n++}`)));
    return {
      figures: figures('model call (miss, testkit server over HTTP)', times),
      check: { name: 'every uncached run called the model', ok: server.calls - before === runs },
    };
  } finally {
    await plain.close();
  }
}

/** Cache hits: the same prompt every run, answered from the store after the first run. */
async function timeCacheHits(
  name: string,
  dir: string,
  server: ModelServer,
  plan: RunPlan,
): Promise<TimedPath> {
  const { runs, warmup } = plan;
  const runner = await openRunner(dir);
  try {
    const first = await runner.run('the cached question');
    for (let i = 0; i < warmup; i++) await runner.run('the cached question');
    const before = server.calls;
    const times: number[] = [];
    let same = true;
    for (let i = 0; i < runs; i++) {
      let content: string | undefined;
      times.push(
        await timed(async () => {
          content = (await runner.run('the cached question')).finalReport?.content;
        }),
      );
      same &&= content === first.finalReport?.content;
    }
    return {
      figures: figures(`cache hit (${name})`, times),
      check: {
        name: `${name}: ${runs} hits made no model call and returned the stored report`,
        ok: server.calls === before && same,
        detail: `${server.calls - before} model calls`,
      },
    };
  } finally {
    await runner.close();
  }
}

/** The store alone: one lookup of a stored report (decompression included). */
async function timeStoreLookups(
  name: string,
  store: CacheStoreConfig,
  dir: string,
  plan: RunPlan,
): Promise<Figures> {
  const { runs, warmup } = plan;
  const backend = await openCacheBackend(name === 'sqlite' ? { path: join(dir, 'lookup.sqlite') } : store);
  const cache = createCache(backend, { namespace: 'bench:' });
  try {
    await cache.set('k', { report: REPORT }, 3_600_000);
    for (let i = 0; i < warmup; i++) await cache.get('k');
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(await timed(() => cache.get('k')));
    return figures(`${name} lookup`, times);
  } finally {
    await cache.close();
  }
}

async function measure(quick: boolean): Promise<SuiteResult> {
  const plan: RunPlan = { runs: quick ? 20 : 500, warmup: quick ? 3 : 20 };
  const server = await startModelServer({ handler: () => finalReport(REPORT) });
  const dirs: string[] = [];
  let redis: RedisServer | undefined;
  const notes: string[] = [];
  const checks: BenchCheck[] = [];
  const rows: Figures[] = [];
  const lookups: Figures[] = [];
  try {
    redis = await startRedisOrNote(notes);
    const plainDir = agentDir(undefined, server.url);
    dirs.push(plainDir);
    const miss = await timeModelCalls(plainDir, server, plan);
    rows.push(miss.figures);
    checks.push(miss.check);

    const stores: [string, CacheStoreConfig | undefined][] = [
      ['sqlite', { backend: 'sqlite', path: './cache.sqlite' }],
      ['redis', redis === undefined ? undefined : { backend: 'redis', url: redis.url }],
    ];
    for (const [name, store] of stores) {
      if (store === undefined) continue;
      const dir = agentDir(store, server.url);
      dirs.push(dir);
      const hits = await timeCacheHits(name, dir, server, plan);
      rows.push(hits.figures);
      checks.push(hits.check);
      lookups.push(await timeStoreLookups(name, store, dir, plan));
    }
  } finally {
    await server.close();
    await redis?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
  return report(plan.runs, rows, lookups, checks, notes);
}

function report(
  runs: number,
  rows: Figures[],
  lookups: Figures[],
  checks: BenchCheck[],
  notes: string[],
): SuiteResult {
  const table = (caption: string, list: Figures[]): BenchTable => ({
    caption,
    columns: ['path', 'runs', 'median ms', 'p99 ms'],
    rows: list.map((f) => [f.label, f.runs, formatNumber(f.median, 2), formatNumber(f.p99, 2)]),
  });
  return {
    tables: [
      table('A whole run of an agent file (createAgentRunner().run): model call vs cache hit', rows),
      table('The store alone: Cache.get of a stored ~1 KB report (brotli included)', lookups),
    ],
    notes: [
      'The model is the testkit server in this process, answering at once: a real model adds seconds, so the hit path saves far more than shown. The model call row is the floor of a miss.',
      'A hit replays the stored report: no model call, an accounting entry at cost 0 marked cached, the op tree node marked. SQLite is a WAL file in a temp dir; Redis a real redis-server on loopback.',
      ...notes,
    ],
    checks,
    raw: { runs, rows, lookups },
  };
}

export const cacheHitSuite: BenchSuite = {
  id: 'cache-hit',
  title: 'Response cache: the hit path next to a model call',
  description:
    'An agent file run through the runtime against the testkit model server: latency of a run that calls the model, and of a run answered from the response cache (SQLite, Redis), median and p99 over 500 runs (quick: 20); and the store lookup alone.',
  run: ({ quick }) => measure(quick),
};
