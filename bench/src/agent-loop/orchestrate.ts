// Runs the whole agent-loop measurement: one model server process, one fresh process per
// contender (started together, measured one at a time), runs interleaved across contenders so
// drifting machine load spreads evenly over them.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ContenderProcess, startContender } from './contender-launcher.js';
import type { ContenderInfo } from './contenders/index.js';
import { type CpuProfile, type ProfileSummary, summariseProfile } from './cpu-profile.js';
import type { SessionFailures } from './ipc.js';
import { type CpuPlan, type CpuResult, cpuPhase, type MemoryRun, memoryRun } from './phases.js';
import type { RequestAdditions } from './request-tokens.js';
import { type ServerProcess, startServerProcess } from './server-launcher.js';

export interface MemoryPlan {
  /** Concurrent sessions per measurement. */
  counts: number[];
  runs: number;
  /** Tool turns before the held final request. */
  turns: number;
  /** Sequential sessions before each baseline. */
  warmupSessions: number;
}

export interface AgentLoopPlan {
  cpu: CpuPlan[];
  memory: MemoryPlan;
  /** Tool turns of the one session per contender whose requests the server counts in tokens. */
  tokenTurns: number;
  /** The configuration `agent-core` is profiled in, when the targets are missed. */
  profile: CpuPlan;
}

export interface ContenderData {
  id: string;
  /** Process start to ready (module loading), ms. */
  startMs: number;
  cpu: CpuResult[];
  memory: { count: number; runs: MemoryRun[] }[];
  /** RSS before any concurrent session (baseline of the first memory run). */
  rssBaseline: number;
  /** What each request of its counted session added beyond the user's content. */
  tokens: RequestAdditions[];
}

export interface ProfileData {
  id: string;
  plan: CpuPlan;
  /** Model calls in the profiled window, to turn milliseconds into per-turn costs. */
  modelCalls: number;
  summary: ProfileSummary;
}

function mergeFailures(into: SessionFailures, from: SessionFailures): void {
  into.failed += from.failed;
  if (from.first !== undefined) into.first ??= from.first;
}

async function measureCpu(
  processes: Map<string, ContenderProcess>,
  data: Map<string, ContenderData>,
  plan: CpuPlan,
): Promise<void> {
  const results = new Map<string, CpuResult>();
  for (const [id, contender] of processes) {
    const warm = await cpuPhase(contender, { ...plan, runs: 0 });
    results.set(id, { ...warm, runs: plan.runs });
  }
  for (let run = 0; run < plan.runs; run++) {
    for (const [id, contender] of processes) {
      const measured = await cpuPhase(contender, { ...plan, runs: 1, warmup: 0 });
      const result = results.get(id)!;
      result.measured.push(...measured.measured);
      mergeFailures(result.failures, measured.failures);
      result.lastAnswer = measured.lastAnswer;
      result.warnings = measured.warnings;
    }
  }
  for (const [id, result] of results) data.get(id)!.cpu.push(result);
}

async function measureMemory(
  processes: Map<string, ContenderProcess>,
  data: Map<string, ContenderData>,
  server: ServerProcess,
  plan: MemoryPlan,
): Promise<void> {
  for (const count of plan.counts) {
    for (const entry of data.values()) entry.memory.push({ count, runs: [] });
    for (let run = 0; run < plan.runs; run++) {
      for (const [id, contender] of processes) {
        const measured = await memoryRun(contender, server, {
          count,
          turns: plan.turns,
          warmup: plan.warmupSessions,
        });
        const entry = data.get(id)!;
        if (entry.rssBaseline === 0) entry.rssBaseline = measured.baseline.rss;
        entry.memory.at(-1)!.runs.push(measured);
      }
    }
  }
}

/** One session per contender, one contender at a time, while the server counts what its requests add. */
async function measureTokens(
  processes: Map<string, ContenderProcess>,
  data: Map<string, ContenderData>,
  server: ServerProcess,
  turns: number,
): Promise<void> {
  for (const [id, contender] of processes) {
    await server.startTokens();
    const result = await cpuPhase(contender, { turns, sessions: 1, runs: 1, warmup: 0 });
    const entry = data.get(id)!;
    entry.tokens = await server.stopTokens();
    if (result.failures.failed > 0) entry.tokens = [];
  }
}

/** Measures every contender; each lives in its own process for the whole suite. */
export async function measureContenders(
  contenders: readonly ContenderInfo[],
  plan: AgentLoopPlan,
  log: (line: string) => void,
): Promise<ContenderData[]> {
  const server = await startServerProcess();
  const processes = new Map<string, ContenderProcess>();
  const data = new Map<string, ContenderData>();
  try {
    for (const contender of contenders) {
      const started = Date.now();
      processes.set(contender.id, await startContender(contender.id, server.baseURL));
      data.set(contender.id, {
        id: contender.id,
        startMs: Date.now() - started,
        cpu: [],
        memory: [],
        rssBaseline: 0,
        tokens: [],
      });
    }
    await measureTokens(processes, data, server, plan.tokenTurns);
    for (const cpuPlan of plan.cpu) {
      const started = Date.now();
      await measureCpu(processes, data, cpuPlan);
      log(`cpu phase, ${cpuPlan.turns} turn(s): ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    const started = Date.now();
    await measureMemory(processes, data, server, plan.memory);
    log(`memory phase: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await Promise.all([...processes.values()].map((contender) => contender.exit()));
    await server.close();
  }
  return [...data.values()];
}

/** Runs one contender again, fresh, under `node --cpu-prof`, and summarises its measured runs. */
export async function profileContender(id: string, plan: CpuPlan): Promise<ProfileData> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-loop-prof-'));
  const server = await startServerProcess();
  try {
    const contender = await startContender(id, server.baseURL, ['--cpu-prof', '--cpu-prof-dir', dir]);
    const reply = await contender.call({ type: 'cpu', ...plan });
    await contender.exit();
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (file === undefined) throw new Error(`agent-loop: node --cpu-prof wrote no profile in ${dir}`);
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const modelCalls = reply.runs.reduce((sum, run) => sum + run.modelCalls, 0);
    return { id, plan, modelCalls, summary: summariseProfile(profile, [reply.windowUs], 40) };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
