import type { ModelErrorKind } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { llmEntries, runScenario, xmlReport } from '../helpers/scenario.js';

const ok = { text: xmlReport('done') };
const fail = (kind: ModelErrorKind, extra: { retryAfterMs?: number; status?: number } = {}) => ({
  error: { kind, ...extra },
});

function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe('fallback across targets', () => {
  test('a failed attempt moves to the next target within the turn, over three targets', async () => {
    const run = await runScenario({ scripts: [[fail('server')], [fail('network')], [ok]] });
    expect(run.result.success).toBe(true);
    expect(llmEntries(run.result).map((e) => [e.provider, e.status])).toEqual([
      ['p1', 'failed'],
      ['p2', 'failed'],
      ['p3', 'ok'],
    ]);
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started).toMatchObject([
      { turn: 1, attempt: 1, isRetry: false },
      { turn: 1, attempt: 2, isRetry: true, retrySlugs: ['server'] },
      { turn: 1, attempt: 3, isRetry: true, retrySlugs: ['network'] },
    ]);
  });

  test('each turn starts again at the primary target', async () => {
    const run = await runScenario({
      tools: [],
      scripts: [
        [fail('server'), { text: xmlReport('second turn') }],
        [
          {
            toolCalls: [{ name: 'agent__task_status', arguments: { status: 'in-progress', now: 'working' } }],
          },
        ],
      ],
    });
    expect(llmEntries(run.result).map((e) => e.provider)).toEqual(['p1', 'p2', 'p1']);
    expect(run.result.finalReport?.content).toBe('second turn');
  });

  test.each(['timeout', 'network', 'server', 'invalid_response', 'content_filter'] as const)(
    'a %s error is retried',
    async (kind) => {
      const run = await runScenario({ scripts: [[fail(kind), ok]] });
      expect(run.result.success).toBe(true);
      expect(llmEntries(run.result)[0]).toMatchObject({
        status: 'failed',
        error: expect.stringContaining(kind),
      });
    },
  );

  test('auth errors end that target; when none is left the run ends with EXIT-AUTH-FAILURE', async () => {
    const run = await runScenario({ scripts: [[fail('auth')], [fail('auth')]] });
    expect(run.result.success).toBe(false);
    expect(run.result.exitCode).toBe('EXIT-AUTH-FAILURE');
    expect(run.exitLog).toBe('agent:EXIT-AUTH-FAILURE');
    expect(run.result.error).toMatch(/credentials/);
    expect(run.result.finalReport).toMatchObject({ status: 'failure', synthetic: true });
  });

  test('an auth failure on one target leaves the others working, and it is not tried again', async () => {
    const run = await runScenario({
      scripts: [
        [fail('auth')],
        [{ toolCalls: [{ name: 'agent__task_status', arguments: { status: 'in-progress', now: 'x' } }] }, ok],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(llmEntries(run.result).map((e) => e.provider)).toEqual(['p1', 'p2', 'p2']);
  });

  test('quota errors on every target end with EXIT-QUOTA-EXCEEDED', async () => {
    const run = await runScenario({ scripts: [[fail('quota')]] });
    expect(run.result.exitCode).toBe('EXIT-QUOTA-EXCEEDED');
    expect(run.result.success).toBe(false);
  });

  test('an unknown model ends that target and falls back', async () => {
    const run = await runScenario({ scripts: [[fail('model_not_found')], [ok]] });
    expect(run.result.success).toBe(true);
  });

  test('a rate limit with one target sleeps for the provider retry-after before retrying', async () => {
    const clock = recordingSleep();
    const run = await runScenario({
      sleep: clock.sleep,
      scripts: [[fail('rate_limit', { retryAfterMs: 2500 }), ok]],
    });
    expect(run.result.success).toBe(true);
    expect(clock.waits).toEqual([2500]);
  });

  test('retry-after is clamped to 1-60 s', async () => {
    const clock = recordingSleep();
    await runScenario({
      sleep: clock.sleep,
      maxRetries: 3,
      scripts: [
        [fail('rate_limit', { retryAfterMs: 10 }), fail('rate_limit', { retryAfterMs: 600_000 }), ok],
      ],
    });
    expect(clock.waits).toEqual([1000, 60_000]);
  });

  test('with several targets it sleeps only once every target was rate-limited', async () => {
    const clock = recordingSleep();
    const run = await runScenario({
      sleep: clock.sleep,
      maxRetries: 4,
      scripts: [
        [fail('rate_limit', { retryAfterMs: 5000 }), ok],
        [fail('rate_limit', { retryAfterMs: 3000 })],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(clock.waits).toEqual([3000]);
    expect(llmEntries(run.result).map((e) => e.provider)).toEqual(['p1', 'p2', 'p1']);
  });

  test('retry-after is honoured with fake timers and the real sleep', async () => {
    const { vi } = await import('vitest');
    vi.useFakeTimers();
    try {
      let attempts = 0;
      let finished = false;
      const { abortableSleep } = await import('@agent/protocol/util');
      const running = runScenario({
        sleep: abortableSleep,
        onEvent: (event) => void (event.type === 'turn_started' && attempts++),
        scripts: [[fail('rate_limit', { retryAfterMs: 4000 }), ok]],
      }).then((run) => {
        finished = true;
        return run;
      });
      await vi.advanceTimersByTimeAsync(3900);
      expect(attempts).toBe(1);
      expect(finished).toBe(false);
      await vi.advanceTimersByTimeAsync(200);
      const run = await running;
      expect(attempts).toBe(2);
      expect(run.result.success).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  test('a context-length error skips that target for the others', async () => {
    const run = await runScenario({ scripts: [[fail('context_length')], [ok]] });
    expect(run.result.success).toBe(true);
    expect(llmEntries(run.result).map((e) => e.provider)).toEqual(['p1', 'p2']);
  });

  test('a context-length error with no other target forces the final turn', async () => {
    const run = await runScenario({ scripts: [[fail('context_length'), { text: 'final words' }]] });
    expect(run.result.success).toBe(true);
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started.at(-1)).toMatchObject({ isFinalTurn: true, forcedFinalReason: 'context' });
  });

  test('retry exhaustion forces the final turn', async () => {
    const run = await runScenario({
      maxRetries: 2,
      scripts: [[fail('server'), fail('server'), { text: 'recovered' }]],
    });
    expect(run.result.success).toBe(true);
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    expect(started.at(-1)).toMatchObject({
      turn: 2,
      isFinalTurn: true,
      forcedFinalReason: 'retry_exhaustion',
    });
  });

  test('retry exhaustion on the final turn fails the run with a synthetic report', async () => {
    const run = await runScenario({
      maxTurns: 1,
      maxRetries: 2,
      scripts: [[fail('server'), fail('server')]],
    });
    expect(run.result.success).toBe(false);
    expect(run.result.exitCode).toBe('EXIT-NO-LLM-RESPONSE');
    expect(run.result.finalReport).toMatchObject({ status: 'failure', synthetic: true });
    expect(llmEntries(run.result)).toHaveLength(2);
  });
});

test('a client that ignores its signal and timeout is cut off by the watchdog, then the next target answers', async () => {
  const { scriptedModel } = await import('@agent/testkit');
  const { runAgent } = await import('../../src/index.js');
  const deaf = {
    provider: 'deaf',
    model: 'never',
    // Ignores every option: never yields, never ends.
    stream: async function* () {
      await new Promise(() => {});
    },
  };
  const backup = scriptedModel([ok]);
  const started = Date.now();
  const result = await runAgent({
    internal: { nonce: 'abcd1234' },
    llmTimeoutMs: 100,
    models: [{ client: deaf }, { client: backup }],
    prompt: 'x',
  });
  expect(Date.now() - started).toBeLessThan(5000);
  expect(result.success).toBe(true);
  expect(llmEntries(result).map((e) => [e.provider, e.status, e.error?.split(':')[0]])).toEqual([
    ['deaf', 'failed', 'timeout'],
    ['scripted', 'ok', undefined],
  ]);
});
