// The compaction suite's scripted model and its usage figure: the request size it reports is
// the o200k count of what was sent, and it tells a summary call, a forced final turn, the
// report turn and a page turn apart from the request alone.
import type { ConversationMessage, ToolDefinition } from '@agent/protocol';
import type { RecordedRequest } from '@agent/testkit';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { chatRequestTokens } from '../src/compaction/request-tokens.js';
import {
  answerFor,
  fullReport,
  INSTRUCTIONS,
  pageBytes,
  pageText,
  TOOL_NAME,
} from '../src/compaction/script.js';

const NOTICE = (turn: number) =>
  `# XML-NEXT: turn ${turn}/210, context window 40% full\nReply inside <ai-agent-0a1b2c3d-FINAL tool="agent__final_report" status="success" format="text">...</ai-agent-0a1b2c3d-FINAL>`;
const TOOL: ToolDefinition = { name: TOOL_NAME, description: 'x', inputSchema: { type: 'object' } };

function request(messages: ConversationMessage[], tools: ToolDefinition[] = [TOOL]): RecordedRequest {
  return { api: 'openai-chat', model: 'm', messages, tools, options: {} };
}

describe('chatRequestTokens', () => {
  it('counts every message text, tool call and tool definition with o200k', () => {
    const page = pageText(4);
    const tools = [{ type: 'function', function: { name: TOOL_NAME, parameters: {} } }];
    const body = {
      messages: [
        { role: 'system', content: INSTRUCTIONS },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ function: { name: TOOL_NAME, arguments: '{"page":4}' } }],
        },
        { role: 'tool', content: page },
      ],
      tools,
    };
    const texts = countTokens(INSTRUCTIONS) + countTokens(page) + countTokens(`${TOOL_NAME}{"page":4}`);
    const roles = countTokens('system') + countTokens('assistant') + countTokens('tool');
    expect(chatRequestTokens(body)).toBe(3 + 4 * 3 + roles + texts + countTokens(JSON.stringify(tools)));
    expect(chatRequestTokens({ messages: [] })).toBe(3);
  });
});

describe('the scripted survey reader', () => {
  const system: ConversationMessage = { role: 'system', content: INSTRUCTIONS };
  const prompt: ConversationMessage = { role: 'user', content: 'Read the survey.' };

  it('writes pages of the planned size, the same every run', () => {
    expect(pageText(6)).toHaveLength(pageBytes(6));
    expect(pageBytes(6)).toBeGreaterThan(12_288);
    expect(pageText(3)).toBe(pageText(3));
  });

  it('asks for the page of the turn, reports on the report turn and on a forced final turn', () => {
    const page = answerFor(request([system, prompt, { role: 'user', content: NOTICE(7) }]), 200);
    expect(page.toolCalls).toEqual([{ name: TOOL_NAME, arguments: { page: 7 } }]);
    const report = answerFor(request([system, prompt, { role: 'user', content: NOTICE(200) }]), 200);
    expect(report.text).toContain(`<ai-agent-0a1b2c3d-FINAL tool="agent__final_report"`);
    expect(report.text).toContain(fullReport(200));
    const forced = answerFor(request([system, prompt, { role: 'user', content: NOTICE(16) }], []), 200);
    expect(forced.text).toContain('pages 1-15 read before the final turn');
  });

  it('answers a call with another system prompt with a summary of the pages it holds', () => {
    const transcript = `assistant: read_page {"page":12}\ntool: ${pageText(12)}\nassistant: read_page {"page":13}`;
    const summary = answerFor(
      request(
        [
          { role: 'system', content: 'Summarize the transcript.' },
          { role: 'user', content: transcript },
        ],
        [],
      ),
      200,
    );
    expect(summary.text).toMatch(
      /^Pages 12-13 of the survey were read with read_page; the next page is 14\./,
    );
    expect(summary.toolCalls).toBeUndefined();
  });
});
