import { finalReport } from '@agent/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { guardrail } from '../../src/index.js';
import { agentOn, runGuarded, serve, servers } from './guard-session.js';

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const throwing = (failOpen: boolean) =>
  guardrail({
    name: 'throws',
    on: 'input',
    failOpen,
    check: () => {
      throw new Error('judge unreachable');
    },
  });

const silent = (failOpen: boolean, aborted: boolean[]) =>
  guardrail({
    name: 'silent',
    on: 'input',
    failOpen,
    timeoutMs: 150,
    check: (_subject, context) =>
      new Promise(() => {
        context.signal.addEventListener('abort', () => aborted.push(true));
      }),
  });

describe('a guardrail that fails', () => {
  test('throws, failing closed: the run trips, saying the guardrail failed and why', async () => {
    const server = await serve([]);
    const run = await runGuarded(agentOn(server, { guardrails: [throwing(false)] }), 'hi');
    expect(run.result.exitCode).toBe('EXIT-GUARDRAIL');
    expect(run.result.error).toBe(
      'guardrail throws blocked the input: the guardrail failed: it threw: judge unreachable',
    );
    expect(server.requests).toHaveLength(0);
    expect(run.runs()).toEqual([expect.objectContaining({ outcome: 'error', failedOpen: false })]);
    expect(run.result.accounting.find((e) => e.type === 'guardrail')).toMatchObject({
      status: 'failed',
      outcome: 'error',
    });
  });

  test('throws, failing open: the run goes on, the error is an event and a WRN line', async () => {
    const server = await serve([finalReport('ok')]);
    const run = await runGuarded(agentOn(server, { guardrails: [throwing(true)] }), 'hi');
    expect(run.result.success, run.result.error).toBe(true);
    expect(run.runs()).toEqual([expect.objectContaining({ outcome: 'error', failedOpen: true })]);
    const line = run.result.logs.find((l) => l.remoteIdentifier === 'agent:guardrail');
    expect(line?.severity).toBe('WRN');
    expect(line?.message).toContain('judge unreachable');
  });

  test('never answers: its signal aborts at its timeout and the run trips, never hanging', async () => {
    const server = await serve([]);
    const aborted: boolean[] = [];
    const started = Date.now();
    const run = await runGuarded(agentOn(server, { guardrails: [silent(false, aborted)] }), 'hi');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(run.result.exitCode).toBe('EXIT-GUARDRAIL');
    expect(run.result.error).toBe(
      'guardrail silent blocked the input: the guardrail failed: no verdict within 150 ms',
    );
    expect(aborted).toEqual([true]);
  });

  test('never answers, failing open: the run goes on after its timeout', async () => {
    const server = await serve([finalReport('ok')]);
    const run = await runGuarded(agentOn(server, { guardrails: [silent(true, [])] }), 'hi');
    expect(run.result.success, run.result.error).toBe(true);
    expect(run.runs()[0]).toMatchObject({
      outcome: 'error',
      failedOpen: true,
      reason: 'no verdict within 150 ms',
    });
  });

  test('answers something that is not a verdict: an error of that guardrail', async () => {
    const server = await serve([]);
    const garbage = guardrail({
      name: 'garbage',
      on: 'input',
      check: () => ({ verdict: 'deny', reason: 'not at prompt' }),
    });
    const run = await runGuarded(agentOn(server, { guardrails: [garbage] }), 'hi');
    expect(run.result.exitCode).toBe('EXIT-GUARDRAIL');
    expect(run.result.error).toContain('it answered verdict "deny"; at prompt one of pass, block, rewrite');
  });

  test('a reason of a megabyte is cut to 500 characters wherever it goes (result, event, trip)', async () => {
    const server = await serve([]);
    const long = guardrail({
      name: 'wordy',
      on: 'input',
      check: () => ({ verdict: 'block', reason: `rule 1: ${'x'.repeat(1_000_000)}` }),
    });
    const run = await runGuarded(agentOn(server, { guardrails: [long] }), 'hi');
    expect(run.result.exitCode).toBe('EXIT-GUARDRAIL');
    const trip = run.result.success ? undefined : run.result.guardrail;
    expect(trip?.reason).toHaveLength(500);
    expect(trip?.reason.endsWith('...')).toBe(true);
    expect(run.runs()[0]?.reason).toHaveLength(500);
    expect(run.result.error!.length).toBeLessThan(600);
  });

  test('a model judge: its own accounting and op tree join the session', async () => {
    const server = await serve([finalReport('ok')]);
    const judge = guardrail({
      name: 'judge',
      on: 'input',
      check: () => ({
        verdict: 'pass',
        accounting: [
          {
            type: 'llm',
            timestamp: 1,
            status: 'ok',
            latency: 5,
            provider: 'judge-provider',
            model: 'judge-model',
            tokens: { inputTokens: 10, outputTokens: 2, totalTokens: 12 },
            turn: 1,
            agentPath: 'main.judge',
          },
        ],
        opTree: {
          id: 'op-0',
          kind: 'session',
          label: 'judge',
          sessionId: 'judge-session',
          startedAt: 1,
          status: 'ok',
          children: [],
          totals: {
            llmCalls: 1,
            toolCalls: 0,
            inputTokens: 10,
            outputTokens: 2,
            cachedTokens: 0,
            costUsd: 0,
            durationMs: 5,
          },
        },
      }),
    });
    const run = await runGuarded(agentOn(server, { guardrails: [judge] }), 'hi');
    expect(run.result.success, run.result.error).toBe(true);
    expect(run.result.accounting.some((e) => e.type === 'llm' && e.model === 'judge-model')).toBe(true);
    const turn = run.result.opTree!.children[0]!;
    const node = turn.children.find((n) => n.kind === 'guardrail');
    expect(node?.children[0]).toMatchObject({ kind: 'session', sessionId: 'judge-session' });
  });
});
