// Issue 24, item 1: with thinking on, Anthropic refuses a last tool turn that does not start with
// signed thinking, which is every tool turn another provider made before a fallback.
import type { ConversationMessage, ReasoningPart } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { clientAt, collect, noticesOf, strictServers, type Target, weatherTool } from './strict-targets.js';

const claude: Target = { type: 'anthropic', model: 'claude-sonnet-4-5' };
const server = strictServers();

const history = (reasoning?: ReasoningPart[]): ConversationMessage[] => [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Weather in Paris?' },
  {
    role: 'assistant',
    content: '',
    ...(reasoning === undefined ? {} : { reasoning }),
    toolCalls: [{ id: 'call_Xy12', name: 'get_weather', arguments: { city: 'Paris' } }],
  },
  { role: 'tool', toolCallId: 'call_Xy12', toolName: 'get_weather', content: '18C' },
  { role: 'user', content: 'Continue.' },
];

describe('Anthropic thinking after a tool turn without thinking', () => {
  it('turns thinking off for that call (with a notice) and the request is accepted', async () => {
    const s = await server();
    s.push({ text: 'It is 18C.' });
    const answer = await collect(
      clientAt(s, claude).stream({
        messages: history(),
        tools: [weatherTool],
        reasoning: { budgetTokens: 2048 },
      }),
    );
    expect(answer.text).toBe('It is 18C.');
    const body = s.requests[0]?.body as Record<string, unknown>;
    expect(s.requests[0]?.rejected).toBeUndefined();
    expect(body.thinking).toBeUndefined();
    expect(noticesOf(answer)).toEqual([
      'thinking is off for this call: the last tool call was made without signed thinking (by another model), which Anthropic rejects while thinking is on',
    ]);
  });

  it('keeps thinking on when the last tool turn starts with signed thinking', async () => {
    const s = await server();
    s.push({ reasoning: { text: 'Answer now.', signature: 'sig-2' }, text: 'It is 18C.' });
    const answer = await collect(
      clientAt(s, claude).stream({
        messages: history([{ text: 'Need the weather.', signature: 'sig-1' }]),
        tools: [weatherTool],
        reasoning: { effort: 'low' },
      }),
    );
    expect(answer.text).toBe('It is 18C.');
    expect(((s.requests[0]?.body ?? {}) as { thinking?: unknown }).thinking).toEqual({
      type: 'enabled',
      budget_tokens: 2048,
    });
    expect(noticesOf(answer)).toEqual([]);
  });

  it('keeps thinking on when only an earlier tool turn lacks it (the rule is about the last one)', async () => {
    const s = await server();
    s.push({ text: 'Done.' });
    const messages: ConversationMessage[] = [
      ...history(),
      {
        role: 'assistant',
        content: '',
        reasoning: [{ text: 'Once more.', signature: 'sig-3' }],
        toolCalls: [{ id: 'toolu_2', name: 'get_weather', arguments: { city: 'Rome' } }],
      },
      { role: 'tool', toolCallId: 'toolu_2', toolName: 'get_weather', content: '25C' },
    ];
    await collect(
      clientAt(s, claude).stream({ messages, tools: [weatherTool], reasoning: { budgetTokens: 4096 } }),
    );
    expect(((s.requests[0]?.body ?? {}) as { thinking?: unknown }).thinking).toEqual({
      type: 'enabled',
      budget_tokens: 4096,
    });
  });
});
