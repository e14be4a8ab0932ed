import { describe, expect, test } from 'vitest';
import { memoryTools } from '../helpers/memory-tools.js';
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

  describe('from a tool message, when the final turn gives no report (seed 000, "From Tool Message")', () => {
    const lookup = () =>
      memoryTools('kb', {
        lookup: () => 'Paris is the capital of France.',
        facts: () => '{"city": "Paris", "country": "France"}',
        broken: () => ({ ok: false, error: { kind: 'execution', message: 'index offline' } }),
      });
    const call = (name: string) => ({ toolCalls: [{ id: `c-${name}`, name, arguments: {} }] });
    const silent = { text: '' };

    test('the last tool result is adopted as the report, and the run says so', async () => {
      const run = await runScenario({
        maxTurns: 2,
        maxRetries: 2,
        tools: [lookup()],
        scripts: [[call('lookup'), silent, silent]],
      });
      expect(run.result).toMatchObject({ success: true, exitCode: 'EXIT-FINAL-ANSWER' });
      expect(run.result.finalReport).toMatchObject({
        origin: 'adopted-tool-message',
        status: 'success',
        format: 'markdown',
        content: 'Paris is the capital of France.',
      });
      const event = run.events.find((e) => e.event.type === 'final_report')?.event;
      expect(event).toMatchObject({ report: { origin: 'adopted-tool-message' } });
      expect(run.outputText('finalize')).toBe('Paris is the capital of France.');
      const warning = run.result.logs.find((l) => l.message.includes('is adopted as the report'));
      expect(warning).toMatchObject({
        severity: 'WRN',
        message:
          'the final turn gave no report; the result of lookup (call c-lookup) is adopted as the report',
      });
    });

    test('a json session adopts a result that is valid JSON for its schema', async () => {
      const schema = { type: 'object', required: ['city'], properties: { city: { type: 'string' } } };
      const run = await runScenario({
        maxTurns: 2,
        maxRetries: 1,
        output: { format: 'json', schema },
        tools: [lookup()],
        scripts: [[call('facts'), silent]],
      });
      expect(run.result.finalReport).toMatchObject({
        origin: 'adopted-tool-message',
        content_json: { city: 'Paris', country: 'France' },
      });
    });

    test('a result that is not JSON is not adopted by a json session', async () => {
      const run = await runScenario({
        maxTurns: 2,
        maxRetries: 1,
        output: { format: 'json' },
        tools: [lookup()],
        scripts: [[call('lookup'), silent]],
      });
      expect(run.result).toMatchObject({ success: false, exitCode: 'EXIT-MAX-TURNS-NO-RESPONSE' });
      expect(run.result.finalReport).toMatchObject({ origin: 'synthetic' });
    });

    test('a failed tool result is never adopted', async () => {
      const run = await runScenario({
        maxTurns: 2,
        maxRetries: 1,
        tools: [lookup()],
        scripts: [[call('broken'), silent]],
      });
      expect(run.result).toMatchObject({ success: false, exitCode: 'EXIT-MAX-TURNS-NO-RESPONSE' });
    });

    test('nothing is adopted when a report attempt was rejected or no model answered', async () => {
      const rejected = await runScenario({
        maxTurns: 2,
        maxRetries: 1,
        output: { format: 'json' },
        tools: [lookup()],
        scripts: [[call('facts'), { text: xmlReport('not json', 'status="success" format="json"') }]],
      });
      expect(rejected.result).toMatchObject({ success: false, exitCode: 'EXIT-INVALID-FINAL-REPORT' });
      const unanswered = await runScenario({
        maxTurns: 2,
        maxRetries: 1,
        tools: [lookup()],
        scripts: [[call('lookup'), { error: { kind: 'server' } }]],
      });
      expect(unanswered.result).toMatchObject({ success: false, exitCode: 'EXIT-NO-LLM-RESPONSE' });
    });
  });
});
