import type { ModelErrorKind } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { llmEntries, runScenario, xmlReport } from '../helpers/scenario.js';

const ok = { text: xmlReport('done') };
const fail = (kind: ModelErrorKind, extra: { retryAfterMs?: number } = {}) => ({ error: { kind, ...extra } });

/** A clock that only moves when the session sleeps, so waits are exact. */
function fakeClock() {
  let t = 1_000_000;
  const waits: number[] = [];
  return {
    waits,
    now: () => t,
    sleep: async (ms: number) => {
      waits.push(ms);
      t += ms;
    },
  };
}

function within(value: number | undefined, low: number, high: number): void {
  expect(value).toBeGreaterThanOrEqual(low);
  expect(value).toBeLessThan(high);
}

describe('backoff between retries of the same target', () => {
  test.each(['network', 'timeout', 'server', 'invalid_response'] as const)(
    'after a %s error the same target is called again only after a wait',
    async (kind) => {
      const clock = fakeClock();
      const run = await runScenario({ ...clock, scripts: [[fail(kind), ok]] });
      expect(run.result.success).toBe(true);
      expect(clock.waits).toHaveLength(1);
      within(clock.waits[0], 250, 500);
      expect(run.result.logs.some((l) => l.remoteIdentifier === 'agent:retry-backoff')).toBe(true);
    },
  );

  test('the waits grow exponentially, within the turn and across the forced final turn', async () => {
    const clock = fakeClock();
    const run = await runScenario({
      ...clock,
      maxTurns: 2,
      scripts: [[fail('server'), fail('server'), fail('server'), fail('network'), fail('timeout'), ok]],
    });
    expect(run.result.success).toBe(true);
    expect(clock.waits).toHaveLength(5);
    for (const [index, floor] of [250, 500, 1000, 2000, 4000].entries()) {
      within(clock.waits[index], floor, floor * 2);
    }
  });

  test('base and max are configurable', async () => {
    const clock = fakeClock();
    await runScenario({
      ...clock,
      maxRetries: 4,
      retryBackoff: { baseMs: 1000, maxMs: 1500 },
      scripts: [[fail('server'), fail('server'), fail('server'), ok]],
    });
    within(clock.waits[0], 500, 1000);
    within(clock.waits[1], 750, 1500);
    within(clock.waits[2], 750, 1500);
  });

  test('moving to another target does not wait; coming back to the failed one waits what is left', async () => {
    const clock = fakeClock();
    const run = await runScenario({
      ...clock,
      maxRetries: 4,
      scripts: [[fail('network'), ok], [fail('server')]],
    });
    expect(run.result.success).toBe(true);
    expect(llmEntries(run.result).map((e) => e.provider)).toEqual(['p1', 'p2', 'p1']);
    expect(clock.waits).toHaveLength(1);
    within(clock.waits[0], 250, 500);
  });

  test('a fallback target that answers needs no wait at all', async () => {
    const clock = fakeClock();
    const run = await runScenario({ ...clock, scripts: [[fail('server')], [ok]] });
    expect(run.result.success).toBe(true);
    expect(clock.waits).toEqual([]);
  });

  test('an answer starts the backoff over', async () => {
    const clock = fakeClock();
    const status = {
      toolCalls: [{ name: 'agent__task_status', arguments: { status: 'in-progress', now: 'x' } }],
    };
    await runScenario({
      ...clock,
      scripts: [[fail('server'), fail('server'), status, fail('server'), ok]],
    });
    expect(clock.waits).toHaveLength(3);
    within(clock.waits[1], 500, 1000);
    within(clock.waits[2], 250, 500);
  });

  test('a retry-after on a server error is honoured, bounded to 1-60 s', async () => {
    const clock = fakeClock();
    await runScenario({
      ...clock,
      maxRetries: 4,
      scripts: [
        [
          fail('server', { retryAfterMs: 4000 }),
          fail('server', { retryAfterMs: 10 }),
          fail('server', { retryAfterMs: 600_000 }),
          ok,
        ],
      ],
    });
    expect(clock.waits).toEqual([4000, 1000, 60_000]);
  });

  test('errors that waiting cannot fix are retried at once', async () => {
    // bad_request leaves the target for the turn (it would refuse the same request again);
    // content_filter is retried; neither waits.
    const clock = fakeClock();
    const run = await runScenario({
      ...clock,
      scripts: [[fail('bad_request')], [fail('content_filter'), ok]],
    });
    expect(run.result.success).toBe(true);
    expect(run.models[0]?.calls).toBe(1);
    expect(clock.waits).toEqual([]);
  });

  test('an abort during the wait ends the run at once', async () => {
    const started = Date.now();
    const run = await runScenario({
      retryBackoff: { baseMs: 60_000, maxMs: 60_000 },
      // The real, abortable sleep of the core.
      sleep: (await import('@agent/protocol/util')).abortableSleep,
      scripts: [[fail('network'), ok]],
      control: (session) => (event) => {
        if (event.type === 'log' && event.entry.remoteIdentifier === 'agent:retry-backoff')
          session.stop('abort');
      },
    });
    expect(run.result.exitCode).toBe('EXIT-ABORTED');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(llmEntries(run.result)).toHaveLength(1);
  });

  test('bad backoff settings are a configuration error that says what is allowed', async () => {
    const run = await runScenario({ retryBackoff: { baseMs: -1, maxMs: 100 }, scripts: [[ok]] });
    expect(run.result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(run.result.error).toContain('retryBackoff.baseMs must be a number of milliseconds >= 0, got -1');
    const inverted = await runScenario({ retryBackoff: { baseMs: 5000, maxMs: 100 }, scripts: [[ok]] });
    expect(inverted.result.error).toContain(
      'retryBackoff.baseMs (5000) must not exceed retryBackoff.maxMs (100)',
    );
  });
});

describe('the result error names what each target said', () => {
  test('EXIT-NO-LLM-RESPONSE quotes the last error of every target', async () => {
    const run = await runScenario({
      maxTurns: 1,
      scripts: [
        [
          fail('server'),
          { error: { kind: 'network', message: 'openai/m1: connect ECONNREFUSED 127.0.0.1:8799' } },
        ],
        [{ error: { kind: 'timeout', message: 'no answer within 5 ms' } }],
      ],
    });
    expect(run.result.exitCode).toBe('EXIT-NO-LLM-RESPONSE');
    expect(run.result.error).toBe(
      'no model answered on the final turn after 3 attempts: p1/m1: openai/m1: connect ECONNREFUSED 127.0.0.1:8799; p2/m2: no answer within 5 ms',
    );
  });

  test('when no target is left, the error says why each was dropped', async () => {
    const run = await runScenario({
      scripts: [
        [{ error: { kind: 'model_not_found', message: 'p1/m1: model "gpt-9000" not found' } }],
        [{ error: { kind: 'quota', message: 'You exceeded your current quota' } }],
      ],
    });
    expect(run.result.exitCode).toBe('EXIT-QUOTA-EXCEEDED');
    expect(run.result.error).toBe(
      'every model is out of quota: p1/m1: model "gpt-9000" not found; p2/m2: You exceeded your current quota',
    );
  });

  test('a target that answered later is not blamed', async () => {
    const status = {
      toolCalls: [{ name: 'agent__task_status', arguments: { status: 'in-progress', now: 'x' } }],
    };
    const run = await runScenario({
      maxTurns: 2,
      maxRetries: 2,
      scripts: [[status, fail('server')], [fail('network')]],
    });
    expect(run.result.exitCode).toBe('EXIT-NO-LLM-RESPONSE');
    expect(run.result.error).toContain('p1/m1: scriptedModel: call #2 failed with a scripted server error');
    expect(run.result.error).toContain('p2/m2: scriptedModel: call #1 failed with a scripted network error');
  });
});
