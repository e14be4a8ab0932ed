import { describe, expect, test } from 'vitest';
import { runScenario, xmlReport } from '../helpers/scenario.js';

describe('the origin of the final report', () => {
  test('a report in the FINAL tag is declared', async () => {
    const run = await runScenario({ scripts: [[{ text: xmlReport('all done') }]] });
    expect(run.result.finalReport).toMatchObject({
      origin: 'declared',
      status: 'success',
      content: 'all done',
    });
    expect(run.result.finalReport?.synthetic).toBeUndefined();
  });

  test('a report through agent__final_report is declared', async () => {
    const run = await runScenario({
      scripts: [
        [
          {
            toolCalls: [
              {
                name: 'agent__final_report',
                arguments: { status: 'partial', report_format: 'markdown', report_content: 'half' },
              },
            ],
          },
        ],
      ],
    });
    expect(run.result.finalReport).toMatchObject({ origin: 'declared', status: 'partial' });
  });

  test('plain text adopted on the forced final turn says so, in the result and the final_report event', async () => {
    const run = await runScenario({ maxTurns: 1, scripts: [[{ text: 'Here is what I found.' }]] });
    expect(run.result.success).toBe(true);
    expect(run.result.finalReport).toMatchObject({
      origin: 'adopted-text',
      status: 'success',
      content: 'Here is what I found.',
    });
    const event = run.events.find((e) => e.event.type === 'final_report')?.event;
    expect(event).toMatchObject({ report: { origin: 'adopted-text' } });
  });

  test('a report the session makes itself is synthetic, and still says synthetic: true', async () => {
    const run = await runScenario({ maxTurns: 1, maxRetries: 1, scripts: [[{ error: { kind: 'server' } }]] });
    expect(run.result.success).toBe(false);
    expect(run.result.finalReport).toMatchObject({ origin: 'synthetic', synthetic: true, status: 'failure' });
  });
});
