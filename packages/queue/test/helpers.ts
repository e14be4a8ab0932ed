import type { AgentEvent, AgentEventMeta, AgentResult, SessionSnapshot, SessionStore } from '@agent/protocol';
import { type RedisServer, startRedisServer } from '@agent/testkit';
import { afterAll } from 'vitest';
import type { QueueAgent, QueueRunOptions } from '../src/index.js';

let redis: Promise<RedisServer> | undefined;
afterAll(async () => {
  if (redis !== undefined) await (await redis).close();
});

/** One real redis-server for the test file (started on first use, stopped after the file). */
export function sharedRedis(): Promise<RedisServer> {
  redis ??= startRedisServer();
  return redis;
}

let queueCount = 0;
/** A queue name of its own per test, so tests sharing a Redis see only their jobs. */
export function freshQueueName(): string {
  queueCount += 1;
  return `test-${process.pid}-${queueCount}`;
}

export function snapshotOf(sessionId: string, turn: number): SessionSnapshot {
  return {
    version: 1,
    sessionId,
    agent: 'echo',
    settingsHash: 'sha256:test',
    status: 'running',
    takenAt: Date.now(),
    turn,
    nonce: 'abcd1234',
    conversation: [],
    loop: { finalReportFailedEver: false, finalReportAttempts: 0, taskStatusOnlyTurns: 0 },
    droppedTargets: [null],
    tokenCorrection: 1,
    accounting: [],
    opTree: {
      id: 'op-0',
      kind: 'session',
      label: 'echo',
      sessionId,
      startedAt: 1,
      status: 'running',
      children: [],
      totals: {
        llmCalls: 0,
        toolCalls: 0,
        inputTokens: 0,
        outputTokens: 0,
        cachedTokens: 0,
        costUsd: 0,
        durationMs: 0,
      },
    },
  };
}

export function answer(sessionId: string, text: string): AgentResult {
  return {
    success: true,
    exitCode: 'EXIT-FINAL-ANSWER',
    finalReport: { format: 'text', content: text, status: 'success' } as AgentResult['finalReport'] & object,
    conversation: [],
    logs: [],
    accounting: [],
    sessionId,
  } as AgentResult;
}

/**
 * A stand-in for an agent runner that records what it was asked: `run` checkpoints turn 1 into
 * the store, streams the prompt's words as `output` events and answers; with `hold`, it waits
 * after the checkpoint until its signal aborts (a session in its second turn).
 */
export function recordingAgent(store: SessionStore, options: { hold?: boolean; gate?: Promise<void> } = {}) {
  const calls: { kind: 'run' | 'resume'; sessionId: string; traceparent?: string }[] = [];

  const emit = (run: QueueRunOptions, sessionId: string, event: AgentEvent) => {
    const meta: AgentEventMeta = { isMaster: true, isFinal: false, sessionId, agentPath: 'echo' };
    run.onEvent?.(event, meta);
  };
  const agent: QueueAgent = {
    async run(input, run) {
      calls.push({
        kind: 'run',
        sessionId: run.sessionId,
        ...(run.traceparent === undefined ? {} : { traceparent: run.traceparent }),
      });

      const prompt = typeof input === 'string' ? input : input.prompt;
      emit(run, run.sessionId, {
        type: 'turn_started',
        turn: 1,
        attempt: 1,
        isRetry: false,
        isFinalTurn: false,
      });
      for (const word of prompt.split(' ')) emit(run, run.sessionId, { type: 'output', text: `${word} ` });
      await store.save(snapshotOf(run.sessionId, 1));
      emit(run, run.sessionId, {
        type: 'turn_started',
        turn: 2,
        attempt: 1,
        isRetry: false,
        isFinalTurn: false,
      });
      emit(run, run.sessionId, { type: 'output', text: 'half-said' });
      if (options.gate !== undefined) await options.gate;
      if (options.hold === true) {
        await new Promise((resolve) => run.signal?.addEventListener('abort', resolve, { once: true }));
        return {
          ...answer(run.sessionId, 'aborted'),
          success: false,
          exitCode: 'EXIT-ABORTED',
          error: 'aborted',
        } as AgentResult;
      }
      return answer(run.sessionId, `echo: ${prompt}`);
    },
    async resume(sessionId, run) {
      calls.push({
        kind: 'resume',
        sessionId,
        ...(run.traceparent === undefined ? {} : { traceparent: run.traceparent }),
      });
      const snapshot = await store.load(sessionId);
      emit(run, sessionId, {
        type: 'turn_started',
        turn: (snapshot?.turn ?? 0) + 1,
        attempt: 1,
        isRetry: false,
        isFinalTurn: false,
      });
      return answer(sessionId, `resumed after turn ${snapshot?.turn}`);
    },
  };
  return { agent, calls };
}

/** The store as an older worker's: no turn journal, so its sessions stream unheld (shadows a method the store may have). */
export function withoutJournal(store: SessionStore): void {
  Object.defineProperty(store, 'appendJournal', { value: undefined, configurable: true });
}

/**
 * Gives the store an in-memory turn journal (as the fleet's Redis store has): the worker then
 * announces that its sessions journal. Returns the sessions journaled so far (`journaled`, shared
 * by workers of one fleet).
 */
export function withJournal(store: SessionStore, journaled = new Set<string>()): Set<string> {
  Object.defineProperty(store, 'appendJournal', {
    value: async (entry: { sessionId: string }) => {
      journaled.add(entry.sessionId);
    },
    configurable: true,
  });
  return journaled;
}
