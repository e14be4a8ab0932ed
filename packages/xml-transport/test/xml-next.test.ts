import { describe, expect, it } from 'vitest';
import {
  type ForcedFinalReason,
  joinXmlNext,
  renderXmlNext,
  renderXmlNextBody,
  renderXmlNextHead,
  type XmlNextOptions,
  XmlTransportError,
} from '../src/index.js';
import { NONCE } from './helpers.js';

const base: XmlNextOptions = {
  nonce: NONCE,
  turn: 3,
  maxTurns: 10,
  contextPercent: 41.6,
  format: 'markdown',
};
const tag = `ai-agent-${NONCE}-FINAL`;

describe('renderXmlNext', () => {
  it('says where the session stands and shows the wrapper with the expected format', () => {
    const notice = renderXmlNext(base);
    expect(notice).toMatch(/^# XML-NEXT: turn 3\/10, context window 42% full\n/);
    expect(notice).toContain(
      `<${tag} tool="agent__final_report" status="success" format="markdown">...</${tag}>`,
    );
    expect(notice).toContain('status: success, failure (not possible) or partial.');
    expect(notice).toContain('Call tools natively, never in XML.');
    expect(notice).toContain('exactly one final report; only its content counts');
    expect(notice).toContain('Payload: raw Markdown, no fence around it.');
  });

  it('tells how to send a payload that would break the tag: base64 with encoding="base64"', () => {
    for (const format of ['markdown', 'json', 'slack-block-kit', 'sub-agent'] as const) {
      expect(renderXmlNext({ ...base, format }), format).toContain(
        'If it contains the closing tag, send it base64 with encoding="base64".',
      );
    }
  });

  it('names the tag only in the wrapper: every rule is said once, so the notice stays short', () => {
    for (const format of ['text', 'json', 'markdown'] as const) {
      const notice = renderXmlNext({ ...base, format });
      expect(notice.split(tag).length - 1, format).toBe(2);
      expect(notice.match(/base64/g), format).toHaveLength(2);
    }
  });

  it('stays short: it goes with every request (a text-format notice is under 450 characters)', () => {
    // 121 o200k tokens for this one (issue 20: the notice was 202 before it was made compact).
    const notice = renderXmlNext({ ...base, format: 'text' });
    expect(notice.length).toBeLessThan(450);
    expect(notice.split('\n')).toHaveLength(5);
  });

  it('shows the attempt only when it is a retry', () => {
    expect(renderXmlNext(base)).not.toContain('attempt');
    expect(renderXmlNext({ ...base, attempt: 1, maxAttempts: 3 })).not.toContain('attempt');
    expect(renderXmlNext({ ...base, attempt: 2, maxAttempts: 3 })).toContain(
      'turn 3/10, attempt 2/3, context',
    );
    expect(renderXmlNext({ ...base, attempt: 2 })).toContain('turn 3/10, attempt 2, context');
  });

  it('reminds the model on the last retry that plain text does not end the task', () => {
    const reminder = 'plain text does not end the task';
    expect(renderXmlNext({ ...base, attempt: 2, maxAttempts: 3 })).not.toContain(reminder);
    const last = renderXmlNext({ ...base, attempt: 3, maxAttempts: 3 });
    expect(last).toContain(`Last attempt: ${reminder}`);
    expect(last).toContain(`<${tag}>`);
  });

  it('includes the JSON schema for the json format, and only then', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    const json = renderXmlNext({ ...base, format: 'json', schema });
    expect(json).toContain(JSON.stringify(schema));
    expect(json).toContain(
      `Payload: one raw JSON value, no code fence, matching this JSON Schema: ${JSON.stringify(schema)}.`,
    );
    expect(json).toContain('format="json"');
    expect(renderXmlNext({ ...base, format: 'json' })).not.toContain('JSON Schema');
    expect(renderXmlNext({ ...base, format: 'markdown', schema })).not.toContain('"required"');
  });

  it('asks for the messages array itself for slack-block-kit, and raw text for text formats', () => {
    expect(renderXmlNext({ ...base, format: 'slack-block-kit' })).toContain(
      'Payload: the raw JSON messages array `[{"blocks": [...]}]`, not wrapped in an object',
    );
    for (const format of ['text', 'tty', 'pipe', 'markdown', 'markdown+mermaid', 'sub-agent'] as const) {
      expect(renderXmlNext({ ...base, format }), format).toMatch(/Payload: raw /);
    }
  });

  const reasons: Record<ForcedFinalReason, RegExp> = {
    context: /context window is almost full/,
    max_turns: /turn limit is reached/,
    task_status_completed: /reported the task as completed/,
    task_status_only: /only reported status/,
    retry_exhaustion: /Too many attempts failed.*status="failure"/,
    user_stop: /user asked you to stop.*status="partial"/,
  };
  for (const [reason, wording] of Object.entries(reasons) as [ForcedFinalReason, RegExp][]) {
    it(`words the forced final turn for ${reason} and lists the tools left`, () => {
      const none = renderXmlNext({ ...base, forcedFinal: { reason } });
      expect(none).toContain('\nFINAL TURN: ');
      expect(none).toMatch(wording);
      expect(none).toContain('Do not call any tools.');
      expect(none).toContain('Reply now with exactly one final report');
      expect(none).not.toContain('Call tools natively');
      const some = renderXmlNext({
        ...base,
        forcedFinal: { reason, allowedTools: ['agent__final_report', 'tool_output'] },
      });
      expect(some).toContain('You may still call only these tools: tool_output.');
      expect(some).toContain('Call tools natively, never in XML.');
    });
  }

  it('has no final-turn section on an ordinary turn', () => {
    expect(renderXmlNext(base)).not.toContain('FINAL TURN');
  });

  it('refuses bad options with a message naming the value', () => {
    expect(() => renderXmlNext({ ...base, turn: 0 })).toThrow(/turn must be an integer >= 1, got 0/);
    expect(() => renderXmlNext({ ...base, contextPercent: Number.NaN })).toThrow(XmlTransportError);
    expect(() => renderXmlNext({ ...base, format: 'yaml' as never })).toThrow(/unknown format "yaml"/);
    expect(() => renderXmlNext({ ...base, nonce: 'no spaces' })).toThrow(/invalid nonce/);
    expect(() => renderXmlNext({ ...base, forcedFinal: { reason: 'bored' as never } })).toThrow(
      /unknown forced final reason "bored"/,
    );
  });

  it.each([
    [{ turn: 0 }, { field: 'turn', value: 0, allowed: 'an integer >= 1' }],
    [{ contextPercent: -1 }, { field: 'contextPercent', value: -1, allowed: 'a number >= 0' }],
    [
      { format: 'yaml' },
      { field: 'format', value: 'yaml', allowed: expect.stringMatching(/^one of .*json/) },
    ],
    [
      { forcedFinal: { reason: 'bored' } },
      { field: 'forcedFinal.reason', value: 'bored', allowed: expect.stringMatching(/^one of /) },
    ],
  ])('a bad option %j carries field, value and allowed like a ConfigError', (bad, expected) => {
    let thrown: unknown;
    try {
      renderXmlNext({ ...base, ...(bad as Partial<XmlNextOptions>) });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(XmlTransportError);
    expect(thrown).toMatchObject({ code: 'invalid_option', ...expected });
    // The project's brand: AgentError.is(error, 'invalid_option') of @agent/protocol recognises it.
    expect((thrown as Record<symbol, unknown>)[Symbol.for('@agent/error')]).toBe(true);
  });
});

describe('renderXmlNextHead / renderXmlNextBody', () => {
  it('join into the whole notice, and only the head changes from turn to turn', () => {
    const turn3 = {
      nonce: NONCE,
      turn: 3,
      maxTurns: 10,
      contextPercent: 41,
      format: 'json' as const,
      schema: { type: 'object' },
    };
    const turn4 = { ...turn3, turn: 4, contextPercent: 57 };
    expect(renderXmlNext(turn3)).toBe(joinXmlNext(renderXmlNextHead(turn3), renderXmlNextBody(turn3)));
    expect(renderXmlNext(turn3)).toBe(`${renderXmlNextHead(turn3)}\n${renderXmlNextBody(turn3)}`);
    expect(renderXmlNextHead(turn4)).not.toBe(renderXmlNextHead(turn3));
    expect(renderXmlNextHead(turn4)).toBe('# XML-NEXT: turn 4/10, context window 57% full');
    expect(renderXmlNextBody(turn4)).toBe(renderXmlNextBody(turn3));
    expect(renderXmlNextBody(turn3)).toContain('{"type":"object"}');
  });

  it('puts the final-turn section and the last-attempt reminder in the body', () => {
    const final = {
      nonce: NONCE,
      turn: 9,
      maxTurns: 10,
      attempt: 3,
      maxAttempts: 3,
      contextPercent: 80,
      format: 'markdown' as const,
      forcedFinal: { reason: 'max_turns' as const },
    };
    expect(renderXmlNextHead(final)).not.toContain('FINAL TURN');
    expect(renderXmlNextBody(final)).toMatch(/^FINAL TURN: The turn limit is reached\./);
    expect(renderXmlNextBody(final)).toBe(renderXmlNextBody({ ...final, attempt: 4 }));
    expect(renderXmlNextBody(final)).not.toBe(renderXmlNextBody({ ...final, attempt: 2 }));
  });
});
