// The served path under load: the OpenAI-compatible headend serving an agent runner (agent-server's
// path) and, as a decomposition, a bare @agent/core session and no session,
// against a minimal pass-through proxy streaming the same scripted model, each server in its
// own process, the load client in another (bench/src/headend-load/).

import { loadavg } from 'node:os';
import type { BenchSuite, SuiteResult } from '../harness/types.js';
import { SERVED_NOTES } from '../headend-load/notes.js';
import { runBursts } from '../headend-load/orchestrate.js';
import {
  type ProfilePlan,
  profileServed,
  profileSummaryLine,
  servedProfileTables,
} from '../headend-load/profile.js';
import { STREAM_SHAPE } from '../headend-load/script.js';
import { completionChecks, figuresTable, targetsTable } from '../headend-load/tables.js';
import { ADDED_RATIO_TARGET, servedTargets } from '../headend-load/targets.js';

/** `BENCH_HEADEND_CPU_PROF=<dir>`: each served process writes a `--cpu-prof` profile there. */
function servedFlags(): string[] {
  const dir = process.env.BENCH_HEADEND_CPU_PROF;
  return dir === undefined || dir === '' ? [] : ['--cpu-prof', '--cpu-prof-dir', dir];
}

async function measure(quick: boolean): Promise<SuiteResult> {
  const concurrencies = quick ? [20] : [100, 500];
  const runs = quick ? 2 : 9;
  const loadBefore = loadavg()[0]!;
  const figures = await runBursts({ concurrencies, runs, servedFlags: servedFlags() });
  // A full run also profiles agent-server's path and the proxy, for the why of a missed target.
  const profilePlan: ProfilePlan = { concurrency: 100, bursts: 3 };
  const profiles = quick ? [] : await profileServed(profilePlan);
  const load = `Load average (1 min) of the machine: ${loadBefore.toFixed(1)} when the run started, ${loadavg()[0]!.toFixed(1)} when it ended (2 cores).`;
  const targets = targetsTable(figures, concurrencies);
  return {
    tables: [
      figuresTable(figures, concurrencies),
      targets.table,
      ...servedProfileTables(profiles, profilePlan),
    ],
    // Issue 42's targets are at 100 and 500 streams: a quick run (20) has none.
    ...(quick
      ? {}
      : { targets: servedTargets(figures, concurrencies, profileSummaryLine(profiles, profilePlan)) }),
    notes: [
      `The scripted stream: ${STREAM_SHAPE}.`,
      `Targets (issue 42): the headend's added p50 and p99 at most ${ADDED_RATIO_TARGET}x the proxy's at 100 and 500 streams, 0 lost (the checks); each ratio is taken per run, headend and proxy back to back, and shown as the median (min-max) of the runs.`,
      load,
      ...SERVED_NOTES,
    ],
    checks: completionChecks(figures, concurrencies),
    raw: { concurrencies, runs, figures, verdicts: targets.verdicts, profiles },
  };
}

export const headendLoadSuite: BenchSuite = {
  id: 'headend-load',
  title: 'Headend load: the served path against a pass-through proxy',
  description:
    'N concurrent streaming chat completions (100 and 500; quick: 20) from a load client in its own process, against the OpenAI-compatible headend serving an agent file runner as agent-server does (createAgentRunner), the same headend serving a bare core session and without a session (a decomposition), and a plain node:http proxy relaying the same scripted stream, each server in its own process, alternated, 9 runs each: failures, lost requests, latency added over the scripted time, heap / RSS per in-flight session.',
  run: ({ quick }) => measure(quick),
};
