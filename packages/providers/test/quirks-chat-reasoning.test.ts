// Issue 24, item 7: reasoning carried over on Chat-compatible servers. OpenRouter's
// reasoning_details go back unchanged (Gemini needs its thought signatures), DeepSeek's thinking
// models get reasoning_content on every tool-call turn, and an empty field never hides the text.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversationMessage } from '@agent/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { afterTools, clientAt, collect, strictServers, type Target, weatherTool } from './strict-targets.js';

const server = strictServers();
const gemini: Target = {
  type: 'openai-compatible',
  model: 'google/gemini-3-pro-preview',
  flavour: 'openrouter',
};
const weather: ConversationMessage[] = [{ role: 'user', content: 'Weather in Paris?' }];
type Json = Record<string, unknown>;

const assistantMessages = (body: unknown): Json[] =>
  ((body as Json).messages as Json[]).filter((message) => message.role === 'assistant');

describe("OpenRouter's reasoning_details", () => {
  it('go back unchanged on the next tool turn, and Gemini behind OpenRouter accepts it', async () => {
    const s = await server();
    s.push(
      {
        reasoning: { text: ['Need ', 'the weather.'], signature: 'gemini-thought-signature' },
        toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
        chatReasoningField: 'reasoning_details',
      },
      { text: 'It is 18C.' },
    );
    const first = await collect(clientAt(s, gemini).stream({ messages: weather, tools: [weatherTool] }));
    expect(first.reasoning).toBe('Need the weather.');
    const second = await collect(
      clientAt(s, gemini).stream({ messages: [...weather, ...afterTools(first)], tools: [weatherTool] }),
    );
    expect(second.text).toBe('It is 18C.');
    expect(s.requests[1]?.rejected).toBeUndefined();
    expect(assistantMessages(s.requests[1]?.body)[0]?.reasoning_details).toEqual([
      { type: 'reasoning.text', text: 'Need the weather.', format: 'google-gemini-v1', index: 0 },
      { type: 'reasoning.encrypted', data: 'gemini-thought-signature', format: 'google-gemini-v1', index: 1 },
    ]);
  });

  it('go back only to the provider that sent them', async () => {
    const s = await server();
    s.push(
      {
        reasoning: { text: 'Plan.', signature: 'sig' },
        toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
        chatReasoningField: 'reasoning_details',
      },
      { text: 'Done.' },
    );
    const first = await collect(clientAt(s, gemini).stream({ messages: weather, tools: [weatherTool] }));
    // A fallback to another Chat server (a strict OpenAI-compatible one would refuse the field).
    const other: Target = { type: 'openai-compatible', model: 'llama-3.3-70b' };
    await collect(
      clientAt(s, other).stream({ messages: [...weather, ...afterTools(first)], tools: [weatherTool] }),
    );
    expect(assistantMessages(s.requests[1]?.body)[0]).not.toHaveProperty('reasoning_details');
  });
});

describe("DeepSeek's reasoning_content", () => {
  it('is on every tool-call turn of a thinking model, even one another model made (empty)', async () => {
    const s = await server();
    s.push({ text: 'It is 18C.' });
    const messages: ConversationMessage[] = [
      ...weather,
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }],
      },
      { role: 'tool', toolCallId: 'call_1', toolName: 'get_weather', content: '18C' },
      { role: 'user', content: 'Continue.' },
    ];
    const reasoner: Target = { type: 'openai-compatible', model: 'deepseek-reasoner', flavour: 'deepseek' };
    const answer = await collect(clientAt(s, reasoner).stream({ messages, tools: [weatherTool] }));
    expect(answer.text).toBe('It is 18C.');
    expect(assistantMessages(s.requests[0]?.body)[0]?.reasoning_content).toBe('');
  });

  it('carries its own reasoning text back', async () => {
    const s = await server();
    s.push(
      {
        reasoning: { text: 'Look it up.' },
        toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
      },
      { text: 'Done.' },
    );
    const reasoner: Target = { type: 'openai-compatible', model: 'deepseek-reasoner', flavour: 'deepseek' };
    const first = await collect(clientAt(s, reasoner).stream({ messages: weather, tools: [weatherTool] }));
    await collect(
      clientAt(s, reasoner).stream({ messages: [...weather, ...afterTools(first)], tools: [weatherTool] }),
    );
    expect(assistantMessages(s.requests[1]?.body)[0]?.reasoning_content).toBe('Look it up.');
  });
});

describe('a server that sends reasoning_content: "" next to reasoning', () => {
  const fixtures = mkdtempSync(join(tmpdir(), 'chat-reasoning-'));
  afterAll(() => rmSync(fixtures, { recursive: true, force: true }));
  const chunk = (delta: Json, finish: string | null = null) =>
    JSON.stringify({
      id: 'c1',
      object: 'chat.completion.chunk',
      model: 'm',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  writeFileSync(
    join(fixtures, 'both-fields.chunks.txt'),
    `${[
      chunk({ role: 'assistant', content: '', reasoning_content: '', reasoning: 'Thinking ' }),
      chunk({ reasoning_content: '', reasoning: 'hard.' }),
      chunk({ content: 'Answer.' }),
      chunk({}, 'stop'),
    ].join('\n')}\n`,
  );

  it('keeps the text', async () => {
    const s = await server({ fixturesDir: fixtures });
    s.push({ replay: 'both-fields.chunks.txt' });
    const answer = await collect(
      clientAt(s, { type: 'openai-compatible', model: 'm' }).stream({ messages: weather }),
    );
    expect(answer.reasoning).toBe('Thinking hard.');
    expect(answer.text).toBe('Answer.');
  });
});
