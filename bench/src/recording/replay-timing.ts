// `replay()` of @agent/evals over a recorded session, timed: each replay starts its own testkit
// server, runs the agent again with the answers and tool results from the record, records the
// new run and compares the two records under `requests` (the strictest comparison).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { replay } from '@agent/evals';
import type { ResolveOptions } from '@agent/runtime';
import { RECORD_SUFFIX } from './sessions.js';

export interface ReplayTimes {
  /** The record replayed. */
  file: string;
  wallMs: number[];
  cpuMs: number[];
  /** Every timed replay matched with no divergence. */
  matched: number;
  /** The first divergence of a replay that did not match, if one did not. */
  firstDivergence?: string;
  /** Model calls the replayed run made (its root tape). */
  modelCalls: number;
}

/** The first record file of `dir`. */
export function firstRecord(dir: string): string {
  const name = readdirSync(dir).find((file) => file.endsWith(RECORD_SUFFIX));
  if (name === undefined) throw new Error(`recording bench: no record in ${dir}`);
  return join(dir, name);
}

/** Replays `file` `warmup` times unmeasured, then `runs` times measured. */
export async function timeReplays(
  file: string,
  resolve: ResolveOptions,
  plan: { runs: number; warmup: number },
): Promise<ReplayTimes> {
  const times: ReplayTimes = { file, wallMs: [], cpuMs: [], matched: 0, modelCalls: 0 };
  for (let i = 0; i < plan.warmup + plan.runs; i++) {
    globalThis.gc?.();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const result = await replay(file, { compare: 'requests', resolve });
    const wall = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    if (i < plan.warmup) continue;
    times.wallMs.push(wall);
    times.cpuMs.push((cpu.user + cpu.system) / 1000);
    times.modelCalls = result.record.tree.tape?.calls.length ?? 0;
    if (result.match) times.matched += 1;
    else times.firstDivergence ??= result.divergences[0]?.message ?? 'no match, no divergence';
  }
  return times;
}
