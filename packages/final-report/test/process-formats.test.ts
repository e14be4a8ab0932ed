import { OUTPUT_FORMATS, type OutputFormat, TEXT_OUTPUT_FORMATS } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { processFinalReport } from '../src/index.js';
import { base64, expectFailure, expectOk, NOW } from './helpers.js';

const TEXT_LIKE: OutputFormat[] = [...TEXT_OUTPUT_FORMATS, 'sub-agent'];

describe('every format from the XML final tag', () => {
  it.each(TEXT_LIKE)('%s keeps the tag body as content, untouched', (format) => {
    const payload = '\n# Report\n\nDone: **yes**.  \n```mermaid\ngraph TD; A-->B\n```\n';
    const result = expectOk(
      processFinalReport(
        { source: 'xml', attributes: { tool: 'agent__final_report', status: 'partial', format }, payload },
        { format },
        { now: NOW },
      ),
    );
    expect(result.report).toEqual({
      status: 'partial',
      format,
      content: payload,
      ts: NOW(),
      origin: 'declared',
    });
    expect(result.warnings).toEqual([]);
    expect(result.repairs).toEqual([]);
  });

  it('json parses the body into content_json and pretty JSON text in content', () => {
    const result = expectOk(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success', format: 'json' }, payload: '{"answer": 42}' },
        { format: 'json' },
        { now: NOW },
      ),
    );
    expect(result.report).toEqual({
      status: 'success',
      format: 'json',
      content_json: { answer: 42 },
      content: '{\n  "answer": 42\n}',
      ts: NOW(),
      origin: 'declared',
    });
  });

  it('slack-block-kit parses the body into { messages } and their JSON text', () => {
    const messages = [{ blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'hi' } }] }];
    const result = expectOk(
      processFinalReport(
        {
          source: 'xml',
          attributes: { status: 'success', format: 'slack-block-kit' },
          payload: JSON.stringify(messages),
        },
        { format: 'slack-block-kit' },
      ),
    );
    expect(result.report.content_json).toEqual({ messages });
    expect(result.report.content).toBe(JSON.stringify(messages));
    expect(result.repairs).toEqual([]);
  });

  it('sub-agent passes even JSON-looking or broken text through without parsing', () => {
    const payload = '{"not": "parsed",, ]';
    const result = expectOk(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success' }, payload },
        { format: 'sub-agent' },
      ),
    );
    expect(result.report.content).toBe(payload);
    expect(result.report.content_json).toBeUndefined();
  });

  it('reads metadata from a JSON attribute and ignores a non-JSON one', () => {
    const ok = expectOk(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success', metadata: '{"sources": 3}' }, payload: 'x' },
        { format: 'text' },
      ),
    );
    expect(ok.report.metadata).toEqual({ sources: 3 });
    const bad = expectOk(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success', metadata: 'three' }, payload: 'x' },
        { format: 'text' },
      ),
    );
    expect(bad.report.metadata).toBeUndefined();
    expect(bad.warnings).toEqual(['metadata is not a JSON object; ignored']);
  });
});

describe('every format from a native tool call', () => {
  it.each(TEXT_LIKE)('%s takes report_content', (format) => {
    const result = expectOk(
      processFinalReport(
        {
          source: 'tool',
          params: {
            report_format: format,
            status: 'success',
            encoding: 'raw',
            report_content: 'The answer.',
            metadata: { k: 'v' },
          },
        },
        { format },
        { now: NOW },
      ),
    );
    expect(result.report).toEqual({
      status: 'success',
      format,
      content: 'The answer.',
      metadata: { k: 'v' },
      ts: NOW(),
      origin: 'declared',
    });
    expect(result.warnings).toEqual([]);
  });

  // Seed 000 Execution Flow 1 reads `params.report_format ?? sessionFormat`; the XML tag
  // carries no encoding: both may be left out, and nothing warns about it.
  it.each(TEXT_LIKE)('%s: a call without report_format or encoding is the session format, raw', (format) => {
    const result = expectOk(
      processFinalReport(
        { source: 'tool', params: { status: 'success', report_content: 'SGVsbG8=' } },
        { format },
      ),
    );
    expect(result.report).toMatchObject({ format, content: 'SGVsbG8=' });
    expect(result.warnings).toEqual([]);
  });

  it('json takes content_json as an object', () => {
    const result = expectOk(
      processFinalReport(
        { source: 'tool', params: { report_format: 'json', status: 'success', content_json: { a: [1, 2] } } },
        { format: 'json' },
      ),
    );
    expect(result.report.content_json).toEqual({ a: [1, 2] });
    expect(result.report.content).toBe(JSON.stringify({ a: [1, 2] }, null, 2));
  });

  it('json takes content_json given as a string holding JSON', () => {
    const result = expectOk(
      processFinalReport(
        { source: 'tool', params: { report_format: 'json', status: 'success', content_json: '{"a": 1,}' } },
        { format: 'json' },
      ),
    );
    expect(result.report.content_json).toEqual({ a: 1 });
    expect(result.repairs).toContain(
      'repaired malformed JSON (quotes, commas, brackets, comments or literals)',
    );
  });

  it('json falls back to report_content when content_json is missing', () => {
    const result = expectOk(
      processFinalReport(
        { source: 'tool', params: { report_format: 'json', status: 'success', report_content: '{"a": 1}' } },
        { format: 'json' },
      ),
    );
    expect(result.report.content_json).toEqual({ a: 1 });
  });

  it('slack-block-kit takes messages as an array', () => {
    const messages = [
      { blocks: [{ type: 'divider' }, { type: 'section', text: { type: 'mrkdwn', text: '*done*' } }] },
    ];
    const result = expectOk(
      processFinalReport(
        { source: 'tool', params: { report_format: 'slack-block-kit', status: 'failure', messages } },
        { format: 'slack-block-kit' },
      ),
    );
    expect(result.report.status).toBe('failure');
    expect(result.report.content_json).toEqual({ messages });
  });

  it('does not mutate the tool parameters', () => {
    const params = { report_format: 'json', status: 'success', content_json: { items: '[1]' } };
    const before = structuredClone(params);
    expectOk(
      processFinalReport(
        { source: 'tool', params },
        { format: 'json', schema: { type: 'object', properties: { items: { type: 'array' } } } },
      ),
    );
    expect(params).toEqual(before);
  });
});

describe('aliases', () => {
  it('accepts format for report_format (tool and xml)', () => {
    const tool = expectOk(
      processFinalReport(
        { source: 'tool', params: { format: 'markdown', status: 'success', report_content: 'x' } },
        { format: 'markdown' },
      ),
    );
    expect(tool.warnings).toEqual([]);
    const xml = expectOk(
      processFinalReport(
        { source: 'xml', attributes: { report_format: 'markdown', status: 'success' }, payload: 'x' },
        { format: 'markdown' },
      ),
    );
    expect(xml.warnings).toEqual([]);
  });

  it('accepts content for report_content', () => {
    const result = expectOk(
      processFinalReport(
        { source: 'tool', params: { format: 'text', status: 'success', content: 'via alias' } },
        { format: 'text' },
      ),
    );
    expect(result.report.content).toBe('via alias');
  });

  it('prefers report_content when both are given', () => {
    const result = expectOk(
      processFinalReport(
        { source: 'tool', params: { status: 'success', report_content: 'canonical', content: 'alias' } },
        { format: 'text' },
      ),
    );
    expect(result.report.content).toBe('canonical');
  });

  it('never copies alias or wrapper fields into the report', () => {
    const result = expectOk(
      processFinalReport(
        { source: 'tool', params: { format: 'text', status: 'success', content: 'x', encoding: 'raw' } },
        { format: 'text' },
        { now: NOW },
      ),
    );
    expect(Object.keys(result.report).sort()).toEqual(['content', 'format', 'origin', 'status', 'ts']);
  });
});

describe('format mismatch and status', () => {
  it.each(OUTPUT_FORMATS.filter((f) => f !== 'markdown'))(
    'a report claiming markdown for %s is normalised with a warning',
    (format) => {
      const payload =
        format === 'json'
          ? '{"a": 1}'
          : format === 'slack-block-kit'
            ? '[{"blocks":[{"type":"divider"}]}]'
            : 'x';
      const result = expectOk(
        processFinalReport(
          { source: 'xml', attributes: { status: 'success', format: 'markdown' }, payload },
          { format },
        ),
      );
      expect(result.report.format).toBe(format);
      expect(result.warnings).toEqual([
        `report_format "markdown" does not match the expected format "${format}"; using "${format}"`,
      ]);
    },
  );

  it('an unknown format is normalised too', () => {
    const result = expectOk(
      processFinalReport(
        { source: 'tool', params: { report_format: 'html', status: 'success', report_content: 'x' } },
        { format: 'text' },
      ),
    );
    expect(result.report.format).toBe('text');
    expect(result.warnings[0]).toContain('"html" does not match the expected format "text"');
  });

  it('a missing status is rejected with what to send, before the payload is looked at', () => {
    for (const input of [
      { source: 'xml', attributes: { format: 'json' }, payload: 'not json at all' } as const,
      { source: 'tool', params: { report_format: 'json', content_json: 'not json' } } as const,
    ]) {
      const failure = expectFailure(
        processFinalReport(input, { format: 'json' }),
        'final_report_status_invalid',
      );
      expect(failure.reason).toBe(
        'the final report has no status: it must be one of "success", "failure", "partial"',
      );
      expect(failure.diagnostics).toEqual([
        'status is missing; use status="success" (task done), status="failure" (task could not be done) or status="partial" (answer incomplete)',
      ]);
    }
  });

  it('an unknown status is rejected, never taken as success', () => {
    for (const status of ['done', 'ok', 'SUCCESSFUL', ' ']) {
      const failure = expectFailure(
        processFinalReport({ source: 'tool', params: { status, report_content: 'x' } }, { format: 'text' }),
        'final_report_status_invalid',
      );
      expect(failure.reason).toContain(`status "${status}" is not allowed`);
    }
    const xml = expectFailure(
      processFinalReport(
        { source: 'xml', attributes: { status: 'done' }, payload: 'x' },
        { format: 'markdown' },
      ),
      'final_report_status_invalid',
    );
    expect(xml.diagnostics[0]).toMatch(/^status "done" is not allowed; use status="success"/);
  });

  it('a status that is not a string is rejected', () => {
    expectFailure(
      processFinalReport({ source: 'tool', params: { status: 1, report_content: 'x' } }, { format: 'text' }),
      'final_report_status_invalid',
    );
  });

  it('with statusOptional a missing status is success with a warning; an unknown one is still rejected', () => {
    const expected = { format: 'text', statusOptional: true } as const;
    const result = expectOk(
      processFinalReport({ source: 'xml', attributes: { format: 'text' }, payload: 'x' }, expected),
    );
    expect(result.report.status).toBe('success');
    expect(result.warnings).toEqual(['status is missing; assumed "success"']);
    expectFailure(
      processFinalReport({ source: 'xml', attributes: { status: 'done' }, payload: 'x' }, expected),
      'final_report_status_invalid',
    );
  });

  it('a status in another case is accepted silently', () => {
    const result = expectOk(
      processFinalReport(
        { source: 'xml', attributes: { status: 'Partial' }, payload: 'x' },
        { format: 'text' },
      ),
    );
    expect(result.report.status).toBe('partial');
    expect(result.warnings).toEqual([]);
  });
});

describe('base64 content', () => {
  it.each(TEXT_LIKE)('%s decodes valid base64', (format) => {
    const text = '# Héllo\n\n| a | b |\n|---|---|\n| ✓ | 🚀 |\n';
    const result = expectOk(
      processFinalReport(
        { source: 'tool', params: { status: 'success', encoding: 'base64', report_content: base64(text) } },
        { format },
      ),
    );
    expect(result.report.content).toBe(text);
    expect(result.repairs).toEqual(['decoded base64 content']);
  });

  it('decodes base64 split over lines and without padding (URL-safe too)', () => {
    const encoded = base64('hello world!?').replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
    const result = expectOk(
      processFinalReport(
        {
          source: 'xml',
          attributes: { status: 'success', encoding: 'base64' },
          payload: `${encoded.slice(0, 8)}\n${encoded.slice(8)}`,
        },
        { format: 'text' },
      ),
    );
    expect(result.report.content).toBe('hello world!?');
  });

  it('decodes base64 before parsing json', () => {
    const result = expectOk(
      processFinalReport(
        {
          source: 'tool',
          params: { status: 'success', encoding: 'base64', report_content: base64('{"a": 1}') },
        },
        { format: 'json' },
      ),
    );
    expect(result.report.content_json).toEqual({ a: 1 });
  });

  it('rejects invalid base64 characters with a clear reason', () => {
    const failure = expectFailure(
      processFinalReport(
        { source: 'tool', params: { status: 'success', encoding: 'base64', report_content: 'not base64!' } },
        { format: 'markdown' },
      ),
      'final_report_base64_invalid',
    );
    expect(failure.reason).toBe(
      'encoding is base64 but the content is not base64: it contains "!" (allowed: A-Z a-z 0-9 + / - _ and trailing =)',
    );
    expect(failure.diagnostics[0]).toContain('report_content:');
  });

  it('rejects base64 of bytes that are not UTF-8 text', () => {
    const failure = expectFailure(
      processFinalReport(
        {
          source: 'tool',
          params: {
            status: 'success',
            encoding: 'base64',
            report_content: Buffer.from([0xff, 0xfe, 0xfd]).toString('base64'),
          },
        },
        { format: 'text' },
      ),
      'final_report_base64_invalid',
    );
    expect(failure.reason).toContain('does not decode to UTF-8 text');
  });

  it('rejects base64 with an impossible length', () => {
    const failure = expectFailure(
      processFinalReport(
        { source: 'tool', params: { status: 'success', encoding: 'base64', report_content: 'abcde' } },
        { format: 'text' },
      ),
      'final_report_base64_invalid',
    );
    expect(failure.reason).toContain('impossible length');
  });

  it('treats an unknown encoding as raw with a warning', () => {
    const result = expectOk(
      processFinalReport(
        { source: 'tool', params: { status: 'success', encoding: 'utf8', report_content: 'plain' } },
        { format: 'text' },
      ),
    );
    expect(result.report.content).toBe('plain');
    expect(result.warnings).toEqual(['encoding "utf8" is not raw|base64; treated as raw']);
  });
});

describe('empty payloads', () => {
  it.each(OUTPUT_FORMATS)('%s: a whitespace-only XML body is final_report_empty', (format) => {
    const failure = expectFailure(
      processFinalReport({ source: 'xml', attributes: { status: 'success' }, payload: ' \n\t ' }, { format }),
      'final_report_empty',
    );
    expect(failure.diagnostics.length).toBeGreaterThan(0);
  });

  it.each(OUTPUT_FORMATS)('%s: a tool call with no content is final_report_empty', (format) => {
    expectFailure(
      processFinalReport({ source: 'tool', params: { status: 'success' } }, { format }),
      'final_report_empty',
    );
  });

  it('names the missing field', () => {
    const failure = expectFailure(
      processFinalReport({ source: 'tool', params: { status: 'success' } }, { format: 'json' }),
      'final_report_empty',
    );
    expect(failure.reason).toBe('the final report is empty: content_json is missing');
  });
});

describe('truncated answers', () => {
  it.each(['json', 'slack-block-kit'] as const)(
    '%s is refused with the token limit in the reason',
    (format) => {
      const failure = expectFailure(
        processFinalReport(
          { source: 'xml', attributes: { status: 'success' }, payload: '{"a": 1' },
          { format },
          { truncated: true, tokenLimit: 4096 },
        ),
        'final_report_truncated',
      );
      expect(failure.reason).toContain('token_limit: 4096 tokens');
    },
  );

  it('text formats are kept with a warning', () => {
    const result = expectOk(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success' }, payload: 'cut he' },
        { format: 'markdown' },
        { truncated: true },
      ),
    );
    expect(result.report.content).toBe('cut he');
    expect(result.warnings).toEqual([
      'the markdown answer stopped at the output token limit; it may be incomplete',
    ]);
  });
});

describe('origin', () => {
  it('is declared by default and adopted-text when the caller says the text was adopted', () => {
    const declared = expectOk(
      processFinalReport(
        { source: 'xml', attributes: { status: 'success' }, payload: 'x' },
        { format: 'text' },
      ),
    );
    expect(declared.report.origin).toBe('declared');
    const adopted = expectOk(
      processFinalReport(
        { source: 'xml', attributes: {}, payload: 'x' },
        { format: 'text' },
        { origin: 'adopted-text' },
      ),
    );
    expect(adopted.report).toMatchObject({ origin: 'adopted-text', status: 'success' });
  });
});
