import { OUTPUT_FORMATS, TEXT_OUTPUT_FORMATS } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { syntheticFailureReport } from '../src/index.js';
import { NOW } from './helpers.js';

const INPUT = {
  reason: 'max turns reached',
  turnsCompleted: 10,
  finalReportAttempts: 2,
  lastStopReason: 'length',
};
const TEXT = [
  'The session ended without a final report.',
  'Reason: max turns reached',
  'Turns completed: 10',
  'Final report attempts: 2',
  'Last stop reason: length',
].join('\n');

describe('syntheticFailureReport', () => {
  it.each([...TEXT_OUTPUT_FORMATS, 'sub-agent' as const])(
    '%s: a failure with the explanation as text',
    (format) => {
      expect(syntheticFailureReport({ ...INPUT, format, now: NOW })).toEqual({
        status: 'failure',
        format,
        content: TEXT,
        ts: NOW(),
        synthetic: true,
        origin: 'synthetic',
      });
    },
  );

  it('json: a small error object in content_json and its text in content', () => {
    const report = syntheticFailureReport({ ...INPUT, format: 'json', now: NOW });
    const contentJson = {
      error: 'max turns reached',
      turnsCompleted: 10,
      finalReportAttempts: 2,
      lastStopReason: 'length',
    };
    expect(report).toEqual({
      status: 'failure',
      format: 'json',
      content_json: contentJson,
      content: JSON.stringify(contentJson, null, 2),
      ts: NOW(),
      synthetic: true,
      origin: 'synthetic',
    });
  });

  it('json: a missing stop reason is null', () => {
    const { lastStopReason: _omit, ...rest } = INPUT;
    expect(syntheticFailureReport({ ...rest, format: 'json' }).content_json?.lastStopReason).toBeNull();
  });

  it('slack-block-kit: one section', () => {
    const report = syntheticFailureReport({ ...INPUT, format: 'slack-block-kit', now: NOW });
    const messages = [{ blocks: [{ type: 'section', text: { type: 'mrkdwn', text: TEXT } }] }];
    expect(report.content_json).toEqual({ messages });
    expect(report.content).toBe(JSON.stringify(messages));
    expect(report.synthetic).toBe(true);
    expect(report.status).toBe('failure');
  });

  it.each(OUTPUT_FORMATS)('%s: status failure, synthetic, reason present', (format) => {
    const report = syntheticFailureReport({ ...INPUT, format });
    expect(report.status).toBe('failure');
    expect(report.synthetic).toBe(true);
    expect(report.format).toBe(format);
    expect(report.content).toContain('max turns reached');
  });
});
