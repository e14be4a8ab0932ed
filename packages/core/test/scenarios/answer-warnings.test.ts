import { describe, expect, test } from 'vitest';
import { runScenario, xmlReport } from '../helpers/scenario.js';

const warnings = (logs: readonly { severity: string; remoteIdentifier: string; message: string }[]) =>
  logs.filter((l) => l.severity === 'WRN').map((l) => `${l.remoteIdentifier}: ${l.message}`);

const taskStatus = {
  id: 'ts',
  name: 'agent__task_status',
  arguments: { status: 'completed', now: 'reporting' },
};

describe('synthetic retry of a plain-text answer (seed 002)', () => {
  test('plain text that is retried logs a WRN for the model that wrote it', async () => {
    const run = await runScenario({
      scripts: [[{ text: 'I think the answer is 4.' }, { text: xmlReport('4') }]],
    });
    expect(run.result.success).toBe(true);
    expect(warnings(run.result.logs)).toEqual([
      'p1:m1: synthetic retry: the answer was plain text without tool calls or a final report; the model is told to call tools or send its final report',
    ]);
  });

  test('plain text adopted on the final turn is no retry and logs none', async () => {
    const run = await runScenario({ maxTurns: 1, scripts: [[{ text: 'Here is what I found.' }]] });
    expect(run.result.finalReport?.origin).toBe('adopted-text');
    expect(warnings(run.result.logs).filter((w) => w.includes('synthetic retry'))).toEqual([]);
  });
});

describe('progress pairing (seed 000)', () => {
  const pairing = (logs: Parameters<typeof warnings>[0]) =>
    warnings(logs).filter((w) => w.includes('same turn as the final report'));

  test('agent__task_status beside the FINAL tag logs a WRN', async () => {
    const run = await runScenario({
      scripts: [[{ text: xmlReport('done'), toolCalls: [taskStatus] }]],
    });
    expect(run.result.success).toBe(true);
    expect(pairing(run.result.logs)).toEqual([
      'agent:final-report: agent__task_status was called in the same turn as the final report; a finalizing turn should not send progress updates',
    ]);
  });

  test('agent__task_status beside a native agent__final_report call logs a WRN', async () => {
    const run = await runScenario({
      scripts: [
        [
          {
            toolCalls: [
              taskStatus,
              {
                name: 'agent__final_report',
                arguments: { status: 'success', report_format: 'markdown', report_content: 'done' },
              },
            ],
          },
        ],
      ],
    });
    expect(run.result.success).toBe(true);
    expect(pairing(run.result.logs)).toHaveLength(1);
  });

  test('a report alone, or task status alone, logs no pairing warning', async () => {
    const run = await runScenario({
      scripts: [[{ toolCalls: [taskStatus] }, { text: xmlReport('done') }]],
    });
    expect(run.result.success).toBe(true);
    expect(pairing(run.result.logs)).toEqual([]);
  });
});
