import { describe, expect, test } from 'vitest';
import { llmEntries, runScenario, xmlReport } from '../helpers/scenario.js';

// A 400 invalid_request fails the same way every time: it is not sent again to the same target.
const invalid = {
  error: {
    kind: 'bad_request' as const,
    status: 400,
    message: "Unsupported value: 'temperature' does not support 0.2 with this model.",
  },
};
const taskStatus = {
  toolCalls: [{ name: 'agent__task_status', arguments: { status: 'in-progress', now: 'working' } }],
};

describe('a request the API rejects as invalid', () => {
  test('moves to the next target at once, without using up an attempt', async () => {
    const run = await runScenario({ maxRetries: 2, scripts: [[invalid], [{ text: xmlReport('done') }]] });
    expect(run.result.success).toBe(true);
    expect(llmEntries(run.result).map((e) => [e.provider, e.status])).toEqual([
      ['p1', 'failed'],
      ['p2', 'ok'],
    ]);
    const started = run.events.filter((e) => e.event.type === 'turn_started').map((e) => e.event);
    // The dead target's attempt does not count: the next target gets attempt 1 of the turn.
    expect(started).toMatchObject([{ attempt: 1 }, { attempt: 1, retrySlugs: ['bad_request'] }]);
  });

  test('is not sent to that target again within the turn, but the next turn tries it first again', async () => {
    const run = await runScenario({
      maxRetries: 3,
      scripts: [
        [invalid, { text: xmlReport('second turn') }],
        [{ error: { kind: 'server' as const } }, taskStatus],
      ],
    });
    expect(run.result.success).toBe(true);
    // p2 fails transiently and is retried; p1, which refused the request, is not asked again
    // until the next turn.
    expect(llmEntries(run.result).map((e) => [e.provider, e.status])).toEqual([
      ['p1', 'failed'],
      ['p2', 'failed'],
      ['p2', 'ok'],
      ['p1', 'ok'],
    ]);
  });

  test('with no target left the run ends at once with the provider message, after one call', async () => {
    const run = await runScenario({ maxRetries: 3, scripts: [[invalid]] });
    expect(run.result.success).toBe(false);
    expect(run.result.exitCode).toBe('EXIT-MODEL-ERROR');
    expect(run.models[0]?.requests).toHaveLength(1);
    const failure = run.result.logs.find((log) => log.severity === 'WRN' && log.remoteIdentifier === 'p1:m1');
    expect(failure?.message).toContain("Unsupported value: 'temperature' does not support 0.2");
  });
});
