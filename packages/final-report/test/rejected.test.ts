import { describe, expect, it } from 'vitest';
import { processFinalReport, rejectedReport } from '../src/index.js';
import { NOW } from './helpers.js';

describe('rejectedReport', () => {
  it('keeps the refused attempt as a failure with its raw payload and the reasons', () => {
    const schema = { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } };
    const payload = '{"count": "three"}';
    const processed = processFinalReport(
      { source: 'xml', attributes: { status: 'success', format: 'json' }, payload },
      { format: 'json', schema },
    );
    if (processed.ok) throw new Error('the payload should not validate');
    const report = rejectedReport({ format: 'json', payload, ...processed, now: NOW });
    expect(report).toEqual({
      status: 'failure',
      format: 'json',
      content: payload,
      ts: NOW(),
      origin: 'rejected',
      rejection: {
        slug: 'final_report_schema_mismatch',
        reason: processed.reason,
        diagnostics: processed.diagnostics,
      },
    });
    expect(report.rejection?.diagnostics.join('\n')).toContain('/count');
    // Never parsed into content_json: it did not validate.
    expect(report.content_json).toBeUndefined();
  });
});
