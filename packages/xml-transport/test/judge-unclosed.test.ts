import { describe, expect, it } from 'vitest';
import { judgeUnclosed, parseFinalSlot, type ReportFormat } from '../src/index.js';
import { CLOSE, NONCE, OPEN } from './helpers.js';

const unclosed = parseFinalSlot(`${OPEN}{"partial": tru`, { nonce: NONCE });
const closed = parseFinalSlot(`${OPEN}{}${CLOSE}`, { nonce: NONCE });
const missing = parseFinalSlot('just text', { nonce: NONCE });

const FORMATS: ReportFormat[] = [
  'json',
  'slack-block-kit',
  'markdown',
  'markdown+mermaid',
  'tty',
  'pipe',
  'text',
  'sub-agent',
];
const STRUCTURED = new Set<ReportFormat>(['json', 'slack-block-kit']);

describe('judgeUnclosed', () => {
  for (const stopReason of ['stop', 'end_turn', 'end', 'eos', 'stop_sequence', 'END_TURN']) {
    for (const format of FORMATS) {
      it(`accepts an unclosed ${format} report on a normal stop (${stopReason})`, () => {
        expect(judgeUnclosed(unclosed, { stopReason, format })).toMatchObject({
          verdict: 'accept',
          slug: 'xml_final_unclosed_stop',
          warn: false,
        });
      });
    }
  }

  for (const stopReason of ['length', 'max_tokens', 'MAX_TOKENS']) {
    for (const format of FORMATS) {
      const structured = STRUCTURED.has(format);
      it(`${structured ? 'rejects' : 'accepts as truncated'} an unclosed ${format} report cut off by ${stopReason}`, () => {
        const judgement = judgeUnclosed(unclosed, { stopReason, format, maxOutputTokens: 4096 });
        expect(judgement.verdict).toBe(structured ? 'reject' : 'accept-truncated');
        expect(judgement.slug).toBe(
          structured ? 'xml_structured_output_truncated' : 'xml_text_output_truncated',
        );
        expect(judgement.reason).toContain('token_limit: 4096 tokens');
        expect(judgement.reason).toContain(`"${stopReason}"`);
      });
    }
  }

  it('names the token limit even when it is not known', () => {
    expect(judgeUnclosed(unclosed, { stopReason: 'length', format: 'json' }).reason).toContain(
      'token_limit reached',
    );
  });

  for (const stopReason of ['tool_calls', 'content_filter', 'other', undefined]) {
    for (const format of FORMATS) {
      it(`accepts with a warning an unclosed ${format} report on an unknown stop (${stopReason})`, () => {
        expect(judgeUnclosed(unclosed, { stopReason, format })).toMatchObject({
          verdict: 'accept',
          slug: 'xml_final_unclosed_unknown_stop',
          warn: true,
        });
      });
    }
  }

  it('accepts a closed report whatever the stop reason, and rejects a missing one', () => {
    expect(judgeUnclosed(closed, { stopReason: 'length', format: 'json' }).verdict).toBe('accept');
    expect(judgeUnclosed(missing, { stopReason: 'stop', format: 'text' })).toMatchObject({
      verdict: 'reject',
      slug: 'xml_final_missing',
    });
  });
});
