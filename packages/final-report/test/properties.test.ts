import { OUTPUT_FORMATS } from '@agent/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownToMrkdwn, parseJsonLenient, processFinalReport } from '../src/index.js';

describe('properties', () => {
  it('parseJsonLenient(JSON.stringify(v)) is v for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const result = parseJsonLenient(text);
        expect(result.ok).toBe(true);
        if (result.ok) {
          expect(result.value).toEqual(JSON.parse(text));
          expect(result.repaired).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('parseJsonLenient never throws on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.boolean(), (text, preferArray) => {
        const result = parseJsonLenient(text, { preferArray, unwrapStringified: true });
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 400 },
    );
  });

  it('parseJsonLenient never throws on JSON-ish noise', () => {
    const piece = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      '"',
      "'",
      ':',
      ',',
      '\\',
      '//',
      '/*',
      '```',
      '\n',
      'True',
      'a',
      '1',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const result = parseJsonLenient(pieces.join(''), { preferArray: true });
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 400 },
    );
  });

  it('processFinalReport never throws, for every format and both sources', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...OUTPUT_FORMATS),
        fc.string({ maxLength: 200 }),
        fc.constantFrom('raw', 'base64', 'bogus'),
        (format, payload, encoding) => {
          const expected = { format, schema: { type: 'object', properties: { a: { type: 'array' } } } };
          const fromXml = processFinalReport(
            { source: 'xml', attributes: { status: 'success', encoding }, payload },
            expected,
          );
          const fromTool = processFinalReport(
            {
              source: 'tool',
              params: {
                status: 'success',
                report_content: payload,
                content_json: payload,
                messages: payload,
                encoding,
              },
            },
            expected,
          );
          for (const result of [fromXml, fromTool]) {
            expect(typeof result.ok).toBe('boolean');
            if (!result.ok) expect(result.slug).not.toBe('final_report_internal_error');
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('markdownToMrkdwn is idempotent on its own output', () => {
    const piece = fc.constantFrom(
      '**',
      '__',
      '~~',
      '#',
      '# ',
      '- ',
      '* ',
      '\n',
      '[',
      ']',
      '(',
      ')',
      '`',
      '```',
      'a',
      'b c',
      'https://x.y',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        const once = markdownToMrkdwn(text);
        expect(markdownToMrkdwn(once)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });
});
