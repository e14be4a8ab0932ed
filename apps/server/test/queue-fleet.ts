import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { RecordedRequest, ScriptedAnswer } from '@agent/testkit';
import { finalReport, SERVER_BIN } from './helpers.js';

/** Turns per scripted session: two status turns, then the report. */
export const TURNS = 3;

/**
 * The scripted model of the fleet tests: each session (its prompt `job-N`) takes `TURNS` turns,
 * each answered after `delayMs`; every request is counted per session and turn so a test can
 * tell how often a turn ran.
 */
export function multiTurnModel(
  delayMs: number,
  options: { holdFirstRunOfTurn?: number; holdEveryRunOfTurn?: number } = {},
) {
  const turnsRun = new Map<string, number>();
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const handler = (request: RecordedRequest): ScriptedAnswer | Promise<ScriptedAnswer> => {
    const prompt = request.messages.find((m) => m.role === 'user' && String(m.content).includes('job-'));
    const job = /job-\d+/.exec(String(prompt?.content ?? ''))?.[0] ?? 'unknown';
    const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
    const key = `${job}#${turn}`;
    turnsRun.set(key, (turnsRun.get(key) ?? 0) + 1);
    const answer = answerFor(job, turn);
    // The first run of that turn hangs until released: a worker killed now dies mid-turn.
    if (turn === options.holdFirstRunOfTurn && turnsRun.get(key) === 1) return held.then(() => answer);
    if (turn === options.holdEveryRunOfTurn) return held.then(() => answer);
    return answer;
  };
  const answerFor = (job: string, turn: number): ScriptedAnswer => {
    if (turn < TURNS) {
      return {
        delayMs,
        toolCalls: [
          {
            name: 'agent__task_status',
            arguments: { status: 'in-progress', done: `turn ${turn}`, pending: 'more', now: 'working' },
          },
        ],
      };
    }
    return { delayMs, text: finalReport(`report of ${job}`) };
  };
  return { handler, turnsRun, release: () => release() };
}

export interface WorkerProcess {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Spawns `agent-server worker` and waits for its "taking jobs" line. */
export function startWorkerProcess(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [SERVER_BIN, 'worker', ...args], {
    cwd,
    env: { ...process.env, HOME: cwd, XDG_CONFIG_HOME: join(cwd, '.config'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${stderr}`)), 30_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('taking jobs')) {
        clearTimeout(timer);
        resolve({ child, stderr: () => stderr, exited });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${stderr}`));
    });
  });
}

export interface ClientOutcome {
  job: string;
  status: number;
  report?: string;
  success?: boolean;
  /** A failed run's error (the result's `error`). */
  error?: string;
  /** Streaming only: the SSE event names in order. */
  events: string[];
  moved: boolean;
}

/** One REST client: `POST /v1/agents/echo/run`, plain JSON or SSE. */
export async function runClient(baseUrl: string, job: string, streaming: boolean): Promise<ClientOutcome> {
  const response = await fetch(`${baseUrl}/echo/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(streaming ? { accept: 'text/event-stream' } : {}) },
    body: JSON.stringify({ prompt: `${job}: do the work` }),
  });
  if (!streaming || response.status !== 200) {
    const body = (await response.json()) as {
      success?: boolean;
      error?: string;
      finalReport?: { content?: string };
    };
    return {
      job,
      status: response.status,
      success: body.success,
      ...(body.error === undefined ? {} : { error: body.error }),
      report: body.finalReport?.content,
      events: [],
      moved: false,
    };
  }
  const text = await response.text();
  const events: string[] = [];
  let result: { success?: boolean; error?: string; finalReport?: { content?: string } } | undefined;
  let moved = false;
  for (const block of text.split('\n\n')) {
    const name = /^event: (.*)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (name === undefined) continue;
    events.push(name);
    if (name === 'status' && data?.includes('session moved to worker')) moved = true;
    if (name === 'result' && data !== undefined) result = JSON.parse(data);
  }
  return {
    job,
    status: 200,
    success: result?.success,
    ...(result?.error === undefined ? {} : { error: result.error }),
    report: result?.finalReport?.content,
    events,
    moved,
  };
}
