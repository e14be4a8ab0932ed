import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../src/index.js';

let server: ModelServer;
afterEach(async () => {
  await server.close();
});

function client(): Anthropic {
  return new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
}

const base = { model: 'claude-test', max_tokens: 1024, messages: [{ role: 'user' as const, content: 'hi' }] };

describe('Anthropic Messages, streaming', () => {
  it('streams thinking with its signature, text and tool_use as the SDK expects', async () => {
    server = await startModelServer({
      steps: [
        {
          reasoning: { text: ['Let me ', 'check.'], signature: 'EqQBsig==' },
          text: ['I will ', 'look.'],
          toolCalls: [{ id: 'toolu_1', name: 'weather', arguments: { city: 'Paris' } }],
          usage: { inputTokens: 50, outputTokens: 20, cachedTokens: 30 },
        },
      ],
    });
    const stream = client().messages.stream({
      ...base,
      tools: [{ name: 'weather', input_schema: { type: 'object' } }],
    });
    const types: string[] = [];
    const thinking: string[] = [];
    stream.on('streamEvent', (event) => {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'thinking_delta')
        thinking.push(event.delta.thinking);
    });
    const message = await stream.finalMessage();
    expect(types[0]).toBe('message_start');
    expect(types.at(-1)).toBe('message_stop');
    expect(thinking).toEqual(['Let me ', 'check.']);
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Let me check.', signature: 'EqQBsig==' },
      { type: 'text', text: 'I will look.' },
      { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.model).toBe('claude-test');
    // Anthropic's input_tokens leave out cache reads, which are reported apart.
    expect(message.usage).toMatchObject({ input_tokens: 20, cache_read_input_tokens: 30, output_tokens: 20 });
  });

  it('streams raw events: ping, signature_delta and input_json_delta fragments', async () => {
    server = await startModelServer({
      steps: [
        {
          reasoning: { text: 'x', signature: 'sig' },
          toolCalls: [{ name: 'grep', arguments: { pattern: 'needle in haystack' } }],
        },
      ],
    });
    const stream = await client().messages.create({ ...base, stream: true });
    const events = [];
    for await (const event of stream) events.push(event);
    const deltas = events.flatMap((event) => (event.type === 'content_block_delta' ? [event.delta] : []));
    expect(deltas).toContainEqual({ type: 'signature_delta', signature: 'sig' });
    const json = deltas.flatMap((delta) => (delta.type === 'input_json_delta' ? [delta.partial_json] : []));
    expect(json.length).toBeGreaterThan(2);
    expect(JSON.parse(json.join(''))).toEqual({ pattern: 'needle in haystack' });
    const start = events.find(
      (event) => event.type === 'content_block_start' && event.content_block.type === 'tool_use',
    );
    expect(start?.type === 'content_block_start' && start.content_block).toMatchObject({
      id: 'toolu_testkit_1_1',
      name: 'grep',
      input: {},
    });
  });

  it('sends invalid JSON tool input verbatim in input_json_delta', async () => {
    server = await startModelServer({
      steps: [{ toolCalls: [{ name: 'grep', arguments: '{"pattern": ' }] }],
    });
    const stream = await client().messages.create({ ...base, stream: true });
    let json = '';
    for await (const event of stream) {
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta')
        json += event.delta.partial_json;
    }
    expect(json).toBe('{"pattern": ');
  });
});

describe('Anthropic Messages, not streaming', () => {
  it('answers one message with thinking, text, tool_use, stop reason and usage', async () => {
    server = await startModelServer({
      steps: [
        {
          reasoning: { text: 'Because.', signature: 'sig-2' },
          text: 'Here.',
          toolCalls: [{ id: 'toolu_9', name: 'weather', arguments: { city: 'Oslo' } }],
          usage: { inputTokens: 12, outputTokens: 29 },
        },
      ],
    });
    const message = await client().messages.create(base);
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      stop_reason: 'tool_use',
      usage: { input_tokens: 12, output_tokens: 29 },
    });
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Because.', signature: 'sig-2' },
      { type: 'text', text: 'Here.' },
      { type: 'tool_use', id: 'toolu_9', name: 'weather', input: { city: 'Oslo' } },
    ]);
  });

  it('maps stop reasons: end_turn, max_tokens, refusal, pause_turn', async () => {
    server = await startModelServer({
      steps: [
        { text: 'a' },
        { text: 'b', stopReason: 'length' },
        { text: 'c', stopReason: 'refusal' },
        { text: 'd', stopReason: 'other' },
      ],
    });
    const reasons = [];
    for (let i = 0; i < 4; i += 1) reasons.push((await client().messages.create(base)).stop_reason);
    expect(reasons).toEqual(['end_turn', 'max_tokens', 'refusal', 'pause_turn']);
  });
});
