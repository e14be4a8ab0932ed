import { describe, expect, it } from 'vitest';
import { processFinalReport, SLACK_LIMITS, type SlackMessage } from '../src/index.js';
import { expectFailure, expectOk } from './helpers.js';

const EXPECTED = { format: 'slack-block-kit' } as const;

function fromXml(payload: string) {
  return processFinalReport(
    { source: 'xml', attributes: { status: 'success', format: 'slack-block-kit' }, payload },
    EXPECTED,
  );
}

function messagesOf(result: ReturnType<typeof fromXml>): SlackMessage[] {
  const ok = expectOk(result);
  const messages = (ok.report.content_json as { messages: SlackMessage[] }).messages;
  expect(ok.report.content).toBe(JSON.stringify(messages));
  return messages;
}

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

describe('slack-block-kit: structure', () => {
  it('takes the messages array as is', () => {
    const messages = [
      { blocks: [section('one')] },
      { blocks: [{ type: 'header', text: { type: 'plain_text', text: 'Two' } }] },
    ];
    expect(messagesOf(fromXml(JSON.stringify(messages)))).toEqual(messages);
  });

  it('tolerates the {"messages": [...]} wrapper and reports it', () => {
    const result = fromXml(JSON.stringify({ messages: [{ blocks: [section('x')] }] }));
    expect(messagesOf(result)).toEqual([{ blocks: [section('x')] }]);
    expect(expectOk(result).repairs).toEqual(['unwrapped the {"messages": [...]} wrapper']);
  });

  it('prefers the outer array in prose and fences', () => {
    const payload =
      'Here you go:\n```json\n[{"blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": "a"}}]}, {"blocks": [{"type": "divider"}]}]\n```';
    expect(messagesOf(fromXml(payload))).toEqual([
      { blocks: [section('a')] },
      { blocks: [{ type: 'divider' }] },
    ]);
  });

  it('accepts one message object, a bare blocks array, a message that is a blocks array, and string messages', () => {
    expect(messagesOf(fromXml(JSON.stringify({ blocks: [section('one')] })))).toEqual([
      { blocks: [section('one')] },
    ]);
    expect(messagesOf(fromXml(JSON.stringify([section('bare'), { type: 'divider' }])))).toEqual([
      { blocks: [section('bare'), { type: 'divider' }] },
    ]);
    expect(messagesOf(fromXml(JSON.stringify([[section('nested')]])))).toEqual([
      { blocks: [section('nested')] },
    ]);
    expect(messagesOf(fromXml(JSON.stringify(['**hello**', { blocks: [section('x')] }])))).toEqual([
      { blocks: [section('*hello*')] },
      { blocks: [section('x')] },
    ]);
  });

  it('turns plain strings into text objects and keeps the notification text', () => {
    const payload = JSON.stringify([
      {
        text: 'fallback',
        blocks: [
          { type: 'section', text: 'plain **md**' },
          { type: 'header', text: 'Title' },
          { type: 'context', elements: ['note'] },
        ],
      },
    ]);
    expect(messagesOf(fromXml(payload))).toEqual([
      {
        text: 'fallback',
        blocks: [
          section('plain *md*'),
          { type: 'header', text: { type: 'plain_text', text: 'Title' } },
          { type: 'context', elements: [{ type: 'mrkdwn', text: 'note' }] },
        ],
      },
    ]);
  });

  it('converts unknown text blocks to sections and drops blocks with nothing usable', () => {
    const result = fromXml(
      JSON.stringify([
        { blocks: [{ type: 'markdown', text: '# Hi' }, { type: 'video' }, { type: 'divider', extra: 1 }] },
      ]),
    );
    expect(messagesOf(result)).toEqual([{ blocks: [section('*Hi*'), { type: 'divider' }] }]);
    expect(expectOk(result).repairs).toEqual([
      'turned a "markdown" block into a section at message 1 block 1',
      'dropped a block at message 1 block 2: "video" blocks are not supported',
    ]);
  });

  it('passes rich_text and actions blocks through', () => {
    const rich = {
      type: 'rich_text',
      elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'x' }] }],
    };
    const actions = {
      type: 'actions',
      elements: [{ type: 'button', text: { type: 'plain_text', text: 'Go' }, url: 'https://x.y' }],
    };
    expect(messagesOf(fromXml(JSON.stringify([{ blocks: [rich, actions] }])))).toEqual([
      { blocks: [rich, actions] },
    ]);
  });

  it('splits a message with more than 50 blocks', () => {
    const blocks = Array.from({ length: 60 }, (_, i) => section(`b${i}`));
    const messages = messagesOf(fromXml(JSON.stringify([{ blocks }])));
    expect(messages.map((m) => m.blocks.length)).toEqual([50, 10]);
  });

  it('parses a stringified messages array from the tool', () => {
    const result = processFinalReport(
      {
        source: 'tool',
        params: { status: 'success', messages: JSON.stringify([{ blocks: [section('s')] }]) },
      },
      EXPECTED,
    );
    expect(messagesOf(result)).toEqual([{ blocks: [section('s')] }]);
  });
});

describe('slack-block-kit: markdown to mrkdwn', () => {
  it('converts bold, links, headings, bullets and strikethrough in section, field and context text', () => {
    const payload = JSON.stringify([
      {
        blocks: [
          {
            type: 'section',
            text: { type: 'mrkdwn', text: '# Status\n- **API**: [up](https://s.io)\n- ~~db~~' },
            fields: [{ type: 'mrkdwn', text: '**a**' }],
          },
          { type: 'context', elements: [{ type: 'mrkdwn', text: 'by [bot](https://b.io)' }] },
          { type: 'header', text: { type: 'plain_text', text: '## **Weekly**' } },
        ],
      },
    ]);
    expect(messagesOf(fromXml(payload))).toEqual([
      {
        blocks: [
          {
            type: 'section',
            text: { type: 'mrkdwn', text: '*Status*\n• *API*: <https://s.io|up>\n• ~db~' },
            fields: [{ type: 'mrkdwn', text: '*a*' }],
          },
          { type: 'context', elements: [{ type: 'mrkdwn', text: 'by <https://b.io|bot>' }] },
          { type: 'header', text: { type: 'plain_text', text: 'Weekly' } },
        ],
      },
    ]);
  });

  it('leaves plain_text section text unconverted', () => {
    const block = { type: 'section', text: { type: 'plain_text', text: '**literal**', emoji: true } };
    expect(messagesOf(fromXml(JSON.stringify([{ blocks: [block] }])))).toEqual([{ blocks: [block] }]);
  });
});

describe('slack-block-kit: clamps', () => {
  it(`clamps section text to ${SLACK_LIMITS.sectionText} characters`, () => {
    const result = fromXml(JSON.stringify([{ blocks: [section('s'.repeat(4000))] }]));
    const text = (messagesOf(result)[0]!.blocks[0]!.text as { text: string }).text;
    expect(text).toHaveLength(2900);
    expect(text.endsWith('…')).toBe(true);
    expect(expectOk(result).repairs).toEqual([
      'clamped section text at message 1 block 1 from 4000 to 2900 characters',
    ]);
  });

  it(`clamps header text to ${SLACK_LIMITS.headerText} characters`, () => {
    const result = fromXml(
      JSON.stringify([{ blocks: [{ type: 'header', text: { type: 'plain_text', text: 'h'.repeat(200) } }] }]),
    );
    const text = (messagesOf(result)[0]!.blocks[0]!.text as { text: string }).text;
    expect(text).toHaveLength(150);
    expect(expectOk(result).repairs).toEqual([
      'clamped header text at message 1 block 1 from 200 to 150 characters',
    ]);
  });

  it(`clamps context element text to ${SLACK_LIMITS.contextText} characters`, () => {
    const result = fromXml(
      JSON.stringify([
        { blocks: [{ type: 'context', elements: [{ type: 'mrkdwn', text: 'c'.repeat(2500) }] }] },
      ]),
    );
    const element = (messagesOf(result)[0]!.blocks[0]!.elements as { text: string }[])[0];
    expect(element?.text).toHaveLength(2000);
    expect(expectOk(result).repairs).toEqual([
      'clamped context text at message 1 block 1 from 2500 to 2000 characters',
    ]);
  });

  it('does not split a surrogate pair when clamping', () => {
    const text = `${'x'.repeat(2898)}🚀🚀`;
    const clamped = (
      messagesOf(fromXml(JSON.stringify([{ blocks: [section(text)] }])))[0]!.blocks[0]!.text as {
        text: string;
      }
    ).text;
    expect(clamped).toBe(`${'x'.repeat(2898)}…`);
  });
});

describe('slack-block-kit: fallbacks', () => {
  it('falls back to one section with the recoverable text when no block is usable', () => {
    const result = fromXml(
      JSON.stringify([
        { blocks: [{ type: 'video', alt_text: 'clip' }] },
        { attachments: [{ color: 'good', text: '**Deploy** finished' }] },
      ]),
    );
    expect(messagesOf(result)).toEqual([{ blocks: [section('*Deploy* finished')] }]);
    expect(expectOk(result).repairs).toContain(
      'replaced the unusable Slack payload with one section holding its text',
    );
  });

  it('falls back to the raw payload, clamped, when nothing can be recovered', () => {
    const raw = `{"oops": ${'9'.repeat(3000)}}`;
    const result = fromXml(raw);
    const blocks = messagesOf(result)[0]?.blocks ?? [];
    expect(blocks).toHaveLength(1);
    expect((blocks[0]!.text as { text: string }).text).toHaveLength(2900);
    expect((blocks[0]!.text as { text: string }).text.startsWith('{"oops": 999')).toBe(true);
  });

  it('sends Markdown that is not JSON as mrkdwn sections', () => {
    const result = fromXml('# Result\n\nAll **green**.');
    expect(messagesOf(result)).toEqual([{ blocks: [section('*Result*\n\nAll *green*.')] }]);
  });

  it('uses report_content when the tool call has no messages', () => {
    const result = processFinalReport(
      {
        source: 'tool',
        params: { report_format: 'slack-block-kit', status: 'success', report_content: '**Shipped** v2' },
      },
      EXPECTED,
    );
    expect(messagesOf(result)).toEqual([{ blocks: [section('*Shipped* v2')] }]);
    expect(expectOk(result).repairs).toEqual(['used report_content because messages is missing']);
  });

  it('uses content (alias) holding a JSON messages array when messages is missing', () => {
    const result = processFinalReport(
      {
        source: 'tool',
        params: { status: 'success', content: JSON.stringify([{ blocks: [section('j')] }]) },
      },
      EXPECTED,
    );
    expect(messagesOf(result)).toEqual([{ blocks: [section('j')] }]);
  });

  it('an empty messages array with no text anywhere is final_report_empty', () => {
    expectFailure(
      processFinalReport({ source: 'tool', params: { status: 'success', messages: [] } }, EXPECTED),
      'final_report_empty',
    );
  });
});
