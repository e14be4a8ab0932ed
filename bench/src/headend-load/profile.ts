// The served path's CPU profile: agent-server's path (the headend serving an agent runner) and
// the pass-through proxy, each in a fresh process under --cpu-prof and the same bursts, summarised
// inside the bursts only (no start-up, no warm-up), per session. It shows where the extra CPU
// per stream goes when the added-latency targets are missed.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CpuProfile,
  type ProfileSummary,
  type ProfileWindow,
  summariseProfile,
} from '../agent-loop/cpu-profile.js';
import { BENCH_DIR, CONTENDER_NODE_FLAGS } from '../agent-loop/paths.js';
import { forkChild } from '../harness/child-process.js';
import { comparisonRows } from '../harness/comparison-rows.js';
import { formatNumber } from '../harness/measure.js';
import type { BenchTable } from '../harness/types.js';
import { contenderById } from './contenders.js';
import { CLIENT_SCRIPT, type Client, SERVED_SCRIPT, type Served } from './orchestrate.js';

export interface ServedProfile {
  contender: string;
  /** Sessions served inside the profiled bursts. */
  sessions: number;
  summary: ProfileSummary;
}

export interface ProfilePlan {
  concurrency: number;
  bursts: number;
}

/** Sampling interval, microseconds: a session costs a few ms, so the default 1 ms samples too coarsely. */
const SAMPLE_US = 100;

/** The contenders profiled: agent-server's path and the floor it is measured against. */
const PROFILED = ['server', 'proxy'] as const;

/** Profiles each contender in turn; bursts after one unmeasured warm-up burst. */
export async function profileServed(plan: ProfilePlan): Promise<ServedProfile[]> {
  const client: Client = await forkChild(CLIENT_SCRIPT, [], {
    label: 'headend-load profile: client',
    cwd: BENCH_DIR,
    execArgv: CONTENDER_NODE_FLAGS,
  });
  try {
    const profiles: ServedProfile[] = [];
    for (const id of PROFILED) profiles.push(await profileOne(client, id, plan));
    return profiles;
  } finally {
    await client.exit();
  }
}

async function profileOne(client: Client, id: string, plan: ProfilePlan): Promise<ServedProfile> {
  const dir = mkdtempSync(join(tmpdir(), 'headend-prof-'));
  try {
    const served: Served = await forkChild(SERVED_SCRIPT, [id, String(plan.concurrency)], {
      label: `headend-load profile: ${id}`,
      cwd: BENCH_DIR,
      execArgv: [
        ...CONTENDER_NODE_FLAGS,
        '--cpu-prof',
        '--cpu-prof-interval',
        String(SAMPLE_US),
        '--cpu-prof-dir',
        dir,
      ],
    });
    const windows: ProfileWindow[] = [];
    let sessions = 0;
    try {
      const { url } = await served.call({ type: 'url' });
      const { expected } = contenderById(id);
      await client.call({ type: 'burst', url, concurrency: plan.concurrency, expected });
      for (let burst = 0; burst < plan.bursts; burst++) {
        const start = await served.call({ type: 'mark' });
        const outcome = await client.call({ type: 'burst', url, concurrency: plan.concurrency, expected });
        const end = await served.call({ type: 'mark' });
        windows.push([start.atUs, end.atUs]);
        sessions += outcome.wallMs.length;
      }
    } finally {
      // Exiting writes the profile.
      await served.exit();
    }
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (file === undefined) throw new Error(`headend-load profile: ${id} wrote no .cpuprofile`);
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    return { contender: id, sessions, summary: summariseProfile(profile, windows, 40) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const perSession = (ms: number, profile: ServedProfile) => (ms * 1000) / Math.max(1, profile.sessions);

function areaUs(profile: ServedProfile, area: string): number {
  return perSession(profile.summary.areas.find((entry) => entry.area === area)?.ms ?? 0, profile);
}

/** Areas of agent-server's path beside the proxy's, and the project functions that made the work. */
export function servedProfileTables(profiles: readonly ServedProfile[], plan: ProfilePlan): BenchTable[] {
  const server = profiles.find((profile) => profile.contender === 'server');
  const proxy = profiles.find((profile) => profile.contender === 'proxy');
  if (server === undefined || proxy === undefined) return [];
  const where = `node --cpu-prof every ${SAMPLE_US} us, ${plan.bursts} bursts of ${plan.concurrency} streams after a warm-up, samples inside the bursts only`;
  const areas = new Set([...server.summary.areas, ...proxy.summary.areas].map((entry) => entry.area));
  const rows = [...areas]
    .map((area) => ({ area, server: areaUs(server, area), proxy: areaUs(proxy, area) }))
    .sort((a, b) => b.server - b.proxy - (a.server - a.proxy));
  const busy = (profile: ServedProfile) => perSession(profile.summary.busyMs, profile);
  return [
    {
      caption: `Profile of the served process: CPU per session by area, microseconds (${where})`,
      columns: ['area', "agent-server's path us/session", 'proxy us/session', 'difference'],
      rows: comparisonRows(
        rows.map((row) => ({ label: row.area, a: row.server, b: row.proxy })),
        { label: 'total (busy)', a: busy(server), b: busy(proxy) },
      ),
    },
    {
      caption: `Profile of agent-server's path: self time charged to the nearest @agent function on the stack, microseconds per session (${where})`,
      columns: ['nearest @agent function', 'us/session', '% of busy'],
      rows: server.summary.byProjectCaller
        .slice(0, 15)
        .map((entry) => [
          `\`${entry.name}\``,
          formatNumber(perSession(entry.ms, server), 0),
          formatNumber(entry.percent, 1),
        ]),
    },
  ];
}

/** One line for a missed target's why: the busy CPU per session and the areas that add most. */
export function profileSummaryLine(profiles: readonly ServedProfile[], plan: ProfilePlan): string {
  const server = profiles.find((profile) => profile.contender === 'server');
  const proxy = profiles.find((profile) => profile.contender === 'proxy');
  if (server === undefined || proxy === undefined) return '';
  const busy = (profile: ServedProfile) => perSession(profile.summary.busyMs, profile);
  const top = [...new Set(server.summary.areas.map((entry) => entry.area))]
    .map((area) => ({ area, extra: areaUs(server, area) - areaUs(proxy, area) }))
    .sort((a, b) => b.extra - a.extra)
    .slice(0, 4)
    .map(({ area, extra }) => `${area} +${formatNumber(extra, 0)}`)
    .join(', ');
  return `Profile (node --cpu-prof, ${plan.bursts} bursts of ${plan.concurrency}; tables "Profile of the served process" below): ${formatNumber(busy(server), 0)} us of CPU per session against the proxy's ${formatNumber(busy(proxy), 0)}; most of the extra: ${top} us.`;
}
