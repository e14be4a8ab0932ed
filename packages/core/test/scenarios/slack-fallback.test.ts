import { describe, expect, test } from 'vitest';
import { runScenario, xmlReport } from '../helpers/scenario.js';

describe('an invalid Slack Block Kit payload', () => {
  test('falls back to one section and logs a warning naming what was invalid', async () => {
    const payload = JSON.stringify([{ blocks: [{ type: 'image', alt_text: 'Deploy chart' }] }]);
    const run = await runScenario({
      output: { format: 'slack-block-kit' },
      scripts: [[{ text: xmlReport(payload, 'status="success" format="slack-block-kit"') }]],
    });
    expect(run.result.success).toBe(true);
    const messages = run.result.finalReport?.content_json?.messages as { blocks: { type: string }[] }[];
    expect(messages).toHaveLength(1);
    expect(messages[0]?.blocks[0]?.type).toBe('section');
    const warnings = run.result.logs.filter(
      (log) => log.severity === 'WRN' && log.remoteIdentifier === 'agent:final-report',
    );
    expect(warnings.map((log) => log.message)).toContainEqual(
      'the Slack payload has no valid Block Kit message (dropped a block at message 1 block 1: the image has no image_url); sent one section holding its text instead',
    );
  });
});
