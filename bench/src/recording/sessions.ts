// Runs of the same N-turn session through `createAgentRunner`, with recording (`sessionsDir`)
// and without, measured in the same way: process CPU over a batch of sessions played one after
// another (the background record writes included: the batch ends when its records are on
// disk), and each session's wall time as its caller sees it.
import { mkdirSync, readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createModelClient } from '@agent/providers';
import type { AgentRunner, ClientFactory } from '@agent/runtime';
import { createAgentRunner } from '@agent/runtime';
import { scriptedModel } from '@agent/testkit';
import { answerFor, promptFor, reportFor } from './script.js';
import type { Workspace } from './workspace.js';

/** How the model is reached: the testkit server over HTTP through the OpenAI client, or in-process. */
export type Transport = 'http' | 'in-process';

/** A records dir must show a batch's records within this long. */
const RECORD_WAIT_MS = 30_000;
/** A record file's name ends so (`<sessionId>.json.gz`; a write in progress has another name). */
export const RECORD_SUFFIX = '.json.gz';

/** One open runner of one variant, and what its sessions have done so far. */
export interface Variant {
  recording: boolean;
  runner: AgentRunner;
  /** The records dir (recording variant only). */
  recordsDir?: string;
  sessions: number;
  /** Sessions that failed or committed another report than the script's. */
  wrong: string[];
  /** Called before each session: the in-process model plans its calls. */
  plan(): void;
}

/** One measured batch: CPU of the whole batch and the wall time of each session. */
export interface Batch {
  cpuMs: number;
  sessionWallMs: number[];
}

function recordCount(dir: string): number {
  return readdirSync(dir).filter((name) => name.endsWith(RECORD_SUFFIX)).length;
}

/** Resolves once `dir` holds `expected` records (they are written in the background). */
async function recordsWritten(dir: string, expected: number): Promise<void> {
  const deadline = performance.now() + RECORD_WAIT_MS;
  while (recordCount(dir) < expected) {
    if (performance.now() > deadline)
      throw new Error(
        `recording bench: ${recordCount(dir)} of ${expected} records in ${dir} after ${RECORD_WAIT_MS} ms`,
      );
    await sleep(1);
  }
}

/**
 * The in-process model: one scripted model per runner, planned session by session, behind the
 * capabilities of the client the config would have built (native parallel tool calls, so no
 * `agent__batch`; the o200k token counter): the session is the HTTP one's but for the transport.
 */
function inProcessModel(pages: number): { clientFactory: ClientFactory; plan(): void } {
  const scripted = scriptedModel([]);
  return {
    clientFactory: ({ config }) => {
      const real = createModelClient(config);
      return {
        provider: real.provider,
        model: real.model,
        ...(real.parallelToolCalls === undefined ? {} : { parallelToolCalls: real.parallelToolCalls }),
        ...(real.countTokens === undefined ? {} : { countTokens: real.countTokens.bind(real) }),
        ...(real.countTokensBound === undefined
          ? {}
          : { countTokensBound: real.countTokensBound.bind(real) }),
        stream: (request, options) => scripted.stream(request, options),
      };
    },
    plan: () => scripted.push(...Array.from({ length: pages + 1 }, () => answerFor)),
  };
}

/** Opens the runner of one variant; `recordsDir` (created) makes it record. */
export async function openVariant(
  workspace: Workspace,
  transport: Transport,
  pages: number,
  recordsDir: string | undefined,
): Promise<Variant> {
  const model = transport === 'in-process' ? inProcessModel(pages) : undefined;
  if (recordsDir !== undefined) mkdirSync(recordsDir, { recursive: true });
  const runner = await createAgentRunner(workspace.agentFile, {
    ...workspace.resolve,
    ...(model === undefined ? {} : { clientFactory: model.clientFactory }),
    ...(recordsDir === undefined ? {} : { sessionsDir: recordsDir }),
  });
  return {
    recording: recordsDir !== undefined,
    runner,
    ...(recordsDir === undefined ? {} : { recordsDir }),
    sessions: 0,
    wrong: [],
    plan: () => model?.plan(),
  };
}

/** Plays `count` sessions of `pages` pages, one after another; the CPU window waits for their records. */
export async function runBatch(variant: Variant, pages: number, count: number): Promise<Batch> {
  globalThis.gc?.();
  const sessionWallMs: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    variant.plan();
    const started = performance.now();
    const result = await variant.runner.run(promptFor(pages));
    sessionWallMs.push(performance.now() - started);
    variant.sessions += 1;
    const report = result.success ? String(result.finalReport.content ?? '') : '';
    if (report !== reportFor(pages)) variant.wrong.push(result.success ? `report ${report}` : result.error);
  }
  if (variant.recordsDir !== undefined) await recordsWritten(variant.recordsDir, variant.sessions);
  const used = process.cpuUsage(cpuBefore);
  return { cpuMs: (used.user + used.system) / 1000, sessionWallMs };
}
