// One contender in a process of its own (forked by `contender-launcher.ts` with the same Node
// flags for all): it loads only its own framework, then runs what the parent asks and measures
// its own process CPU and memory.
import { performance } from 'node:perf_hooks';
import { answerParent } from '../harness/child-process.js';
import { contenderById } from './contenders/index.js';
import type { SessionOutcome, SessionRunner } from './contenders/types.js';
import type { ContenderCommand, ContenderReply, CpuRun, MemorySample, SessionFailures } from './ipc.js';
import { FINAL_ANSWER, promptFor } from './script.js';

const [contenderId, baseURL] = process.argv.slice(2);
if (contenderId === undefined || baseURL === undefined) {
  throw new Error('usage: contender-process.ts <contender-id> <base-url>');
}
const collectGarbage = (globalThis as { gc?: () => void }).gc;
if (collectGarbage === undefined) throw new Error('contender-process: run with --expose-gc');
const gc: () => void = collectGarbage;

// Warnings a framework emits (e.g. MaxListenersExceededWarning) are reported in the notes, not printed.
const warnings = new Set<string>();
process.removeAllListeners('warning');
process.on('warning', (warning) => warnings.add(`${warning.name}: ${warning.message}`));

const runSession: SessionRunner = await (await contenderById(contenderId).load())(baseURL);

class Outcomes {
  readonly failures: SessionFailures = { failed: 0 };
  lastAnswer = '';
  events = 0;

  record(outcome: SessionOutcome): void {
    this.lastAnswer = outcome.finalText;
    this.events += outcome.events;
    if (outcome.finalText !== FINAL_ANSWER) {
      this.fail(`answered ${JSON.stringify(outcome.finalText.slice(0, 200))}, expected ${FINAL_ANSWER}`);
    }
  }

  fail(problem: string): void {
    this.failures.failed++;
    this.failures.first ??= problem;
  }

  async play(prompt: string, turns: number): Promise<void> {
    try {
      this.record(await runSession(prompt, turns));
    } catch (error) {
      this.fail(describeError(error));
    }
  }
}

const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (cause: ${describeError(error.cause)})` : '';
  const code = (error as { code?: unknown }).code;
  return `${error.name}: ${error.message}${typeof code === 'string' ? ` [${code}]` : ''}${cause}`;
}

function sample(): MemorySample {
  gc();
  gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
}

async function cpuPhase(command: Extract<ContenderCommand, { type: 'cpu' }>): Promise<ContenderReply> {
  const prompt = promptFor({ turns: command.turns });
  const outcomes = new Outcomes();
  for (let i = 0; i < command.warmup * command.sessions; i++) await outcomes.play(prompt, command.turns);
  const runs: CpuRun[] = [];
  const windowStart = monotonicUs();
  for (let run = 0; run < command.runs; run++) {
    // Each run starts clean: it pays for its own garbage, not for the previous run's.
    gc();
    const eventsBefore = outcomes.events;
    const cpuBefore = process.cpuUsage();
    const wallBefore = performance.now();
    for (let i = 0; i < command.sessions; i++) await outcomes.play(prompt, command.turns);
    const wallMs = performance.now() - wallBefore;
    const cpu = process.cpuUsage(cpuBefore);
    runs.push({
      sessions: command.sessions,
      modelCalls: command.sessions * (command.turns + 1),
      cpuMs: (cpu.user + cpu.system) / 1000,
      wallMs,
      events: outcomes.events - eventsBefore,
    });
  }
  return {
    id: command.id,
    type: 'cpu',
    runs,
    failures: outcomes.failures,
    lastAnswer: outcomes.lastAnswer,
    windowUs: [windowStart, monotonicUs()],
    warnings: [...warnings],
  };
}

let memoryRun: { outcomes: Outcomes; count: number; settled: Promise<unknown> } | undefined;

async function memoryStart(
  command: Extract<ContenderCommand, { type: 'memory-start' }>,
): Promise<ContenderReply> {
  const outcomes = new Outcomes();
  const warmPrompt = promptFor({ turns: command.turns });
  for (let i = 0; i < command.warmup; i++) await outcomes.play(warmPrompt, command.turns);
  const baseline = sample();
  const prompt = promptFor({ turns: command.turns, hold: { phase: command.phase, count: command.count } });
  const sessions: Promise<void>[] = [];
  for (let i = 0; i < command.count; i++) sessions.push(outcomes.play(prompt, command.turns));
  memoryRun = { outcomes, count: command.count, settled: Promise.all(sessions) };
  return { id: command.id, type: 'memory-start', baseline };
}

async function memoryFinish(id: number): Promise<ContenderReply> {
  if (memoryRun === undefined) throw new Error('contender-process: memory-finish without memory-start');
  const { outcomes, count, settled } = memoryRun;
  await settled;
  const completed = count - outcomes.failures.failed;
  memoryRun = undefined;
  return {
    id,
    type: 'memory-finish',
    completed,
    failures: outcomes.failures,
    lastAnswer: outcomes.lastAnswer,
    warnings: [...warnings],
  };
}

async function handle(command: ContenderCommand): Promise<ContenderReply> {
  switch (command.type) {
    case 'cpu':
      return cpuPhase(command);
    case 'memory-start':
      return memoryStart(command);
    case 'memory-sample':
      return { id: command.id, type: 'memory-sample', sample: sample() };
    case 'memory-finish':
      return memoryFinish(command.id);
    case 'exit':
      throw new Error('contender-process: exit is answered by answerParent');
  }
}

answerParent(handle);
