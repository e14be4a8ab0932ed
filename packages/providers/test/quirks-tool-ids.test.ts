// Issue 24, item 4: tool-call ids. Servers that send none get unique ones; every request maps the
// history's ids to what its API accepts (Mistral: 9 letters/digits, Anthropic: [A-Za-z0-9_-],
// OpenAI: at most 40 characters), the same way in every turn.
import type { ConversationMessage } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { afterTools, clientAt, collect, strictServers, type Target, weatherTool } from './strict-targets.js';

const server = strictServers();
type Json = Record<string, unknown>;

const mistral: Target = {
  type: 'openai-compatible',
  model: 'mistral-large-latest',
  flavour: 'mistral',
  config: { streamUsage: false },
};
const claude: Target = { type: 'anthropic', model: 'claude-sonnet-4-5' };

/** Two tool turns whose ids come from other providers: Kimi-style, OpenAI, and a repeated one. */
function foreignHistory(): ConversationMessage[] {
  const turn = (id: string, city: string): ConversationMessage[] => [
    { role: 'assistant', content: '', toolCalls: [{ id, name: 'get_weather', arguments: { city } }] },
    { role: 'tool', toolCallId: id, toolName: 'get_weather', content: `${city}: 18C` },
  ];
  return [
    { role: 'user', content: 'Weather in three cities?' },
    ...turn('functions.get_weather:0', 'Paris'),
    ...turn('call_0', 'Rome'),
    // A server that reuses its ids in every turn.
    ...turn('call_0', 'Oslo'),
    ...turn('call_'.padEnd(48, 'z'), 'Bern'),
    { role: 'user', content: 'Continue.' },
  ];
}

const callIds = (body: Json): string[] =>
  (body.messages as Json[]).flatMap((m) =>
    ((m.tool_calls as Json[] | undefined) ?? []).map((c) => String(c.id)),
  );
const resultIds = (body: Json): string[] =>
  (body.messages as Json[]).filter((m) => m.role === 'tool').map((m) => String(m.tool_call_id));

describe('a server that sends no tool-call ids', () => {
  it('gets unique ids in every turn, and the history then passes Anthropic', async () => {
    const s = await server();
    const local: Target = { type: 'openai-compatible', model: 'llama' };
    s.push(
      { toolCalls: [{ id: null, name: 'get_weather', arguments: { city: 'Paris' } }] },
      { toolCalls: [{ id: null, name: 'get_weather', arguments: { city: 'Rome' } }] },
      { text: 'Done.' },
    );
    const messages: ConversationMessage[] = [{ role: 'user', content: 'Weather?' }];
    const first = await collect(clientAt(s, local).stream({ messages, tools: [weatherTool] }));
    messages.push(...afterTools(first));
    const second = await collect(clientAt(s, local).stream({ messages, tools: [weatherTool] }));
    messages.push(...afterTools(second));
    const [a, b] = [first.toolCalls[0]?.id, second.toolCalls[0]?.id];
    expect(a).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(b).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(a).not.toBe(b);
    const answer = await collect(clientAt(s, claude).stream({ messages, tools: [weatherTool] }));
    expect(answer.text).toBe('Done.');
    expect(s.requests.map((r) => r.rejected)).toEqual([undefined, undefined, undefined]);
  });
});

describe('ids from other providers, mapped per target', () => {
  it('Mistral: 9 letters or digits, calls and results matched, the same mapping in the next turn', async () => {
    const s = await server();
    s.push({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Nice' } }] }, { text: 'Done.' });
    const messages = foreignHistory();
    const first = await collect(clientAt(s, mistral).stream({ messages, tools: [weatherTool] }));
    const body1 = s.requests[0]?.body as Json;
    expect(s.requests[0]?.rejected).toBeUndefined();
    const ids = callIds(body1);
    expect(ids).toHaveLength(4);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(new Set(ids).size).toBe(4);
    expect(resultIds(body1)).toEqual(ids);
    // Mistral's own id (already valid) stays as it is in the next turn; the others map the same way.
    messages.push(...afterTools(first));
    await collect(clientAt(s, mistral).stream({ messages, tools: [weatherTool] }));
    const body2 = s.requests[1]?.body as Json;
    expect(s.requests[1]?.rejected).toBeUndefined();
    expect(callIds(body2)).toEqual([...ids, first.toolCalls[0]?.id]);
  });

  it('Mistral: an assistant message goes between tool results and the next user message', async () => {
    const s = await server();
    s.push({ text: 'Done.' });
    await collect(clientAt(s, mistral).stream({ messages: foreignHistory(), tools: [weatherTool] }));
    const roles = (((s.requests[0]?.body ?? {}) as Json).messages as Json[]).map((m) => m.role);
    expect(roles.slice(-3)).toEqual(['tool', 'assistant', 'user']);
  });

  it('Anthropic: only [A-Za-z0-9_-], unique, results matched', async () => {
    const s = await server();
    s.push({ text: 'Done.' });
    await collect(clientAt(s, claude).stream({ messages: foreignHistory(), tools: [weatherTool] }));
    expect(s.requests[0]?.rejected).toBeUndefined();
    const blocks = (((s.requests[0]?.body ?? {}) as Json).messages as Json[]).flatMap(
      (m) => m.content as Json[],
    );
    const uses = blocks.filter((b) => b.type === 'tool_use').map((b) => String(b.id));
    const results = blocks.filter((b) => b.type === 'tool_result').map((b) => String(b.tool_use_id));
    expect(uses[0]).toMatch(/^functions_get_weather_0_[A-Za-z0-9]{8}$/);
    expect(uses[1]).toBe('call_0');
    expect(uses[2]).toMatch(/^call_0_[A-Za-z0-9]{8}$/);
    expect(results).toEqual(uses);
  });

  it('OpenAI: ids over 40 characters are shortened, the others kept', async () => {
    const s = await server();
    s.push({ text: 'Done.' });
    await collect(clientAt(s, { type: 'openai', model: 'gpt-4.1' }).stream({ messages: foreignHistory() }));
    expect(s.requests[0]?.rejected).toBeUndefined();
    const ids = callIds((s.requests[0]?.body ?? {}) as Json);
    expect(ids.slice(0, 2)).toEqual(['functions.get_weather:0', 'call_0']);
    expect(ids[3]?.length).toBeLessThanOrEqual(40);
    expect(new Set(ids).size).toBe(4);
  });
});
