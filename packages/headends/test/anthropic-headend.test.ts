import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicHeadend, type ServedHeadend, serve } from '../src/index.js';
import { echoAnswer, startAgents, type TestAgents } from './helpers/agents.js';

let agents: TestAgents;
let server: ServedHeadend;
let client: Anthropic;

beforeAll(async () => {
  agents = await startAgents(echoAnswer);
  server = await serve(createAnthropicHeadend({ catalog: agents.catalog, tokens: ['key-1'] }));
  client = new Anthropic({ baseURL: server.url, apiKey: 'key-1', maxRetries: 0 });
});

afterAll(async () => {
  await server.close();
  await agents.close();
});

describe('Anthropic-compatible headend with the official client', () => {
  it('lists the agents as models', async () => {
    const page = await client.models.list();
    expect(page.data.map((model) => model.id)).toEqual(['echo']);
  });

  it('answers a message with thinking and text blocks and usage', async () => {
    const message = await client.messages.create({
      model: 'echo',
      max_tokens: 1024,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [{ type: 'text', text: 'second' }] },
      ],
    });
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    const text = message.content.find((block) => block.type === 'text');
    expect(text?.type === 'text' && text.text).toBe('Echo: second');
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.input_tokens).toBe(10);
    expect(message.usage.output_tokens).toBe(5);
  });

  it('streams thinking and text blocks and ends with usage and a stop reason', async () => {
    const stream = client.messages.stream({
      model: 'echo',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'stream it' }],
    });
    const types: string[] = [];
    stream.on('streamEvent', (event) => types.push(event.type));
    const message = await stream.finalMessage();
    expect(types[0]).toBe('message_start');
    expect(types).toContain('content_block_delta');
    expect(types.at(-1)).toBe('message_stop');
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    const text = message.content.find((block) => block.type === 'text');
    expect(text?.type === 'text' && text.text).toBe('Echo: stream it');
    const thinking = message.content.find((block) => block.type === 'thinking');
    expect(thinking?.type === 'thinking' && thinking.thinking).toContain('Thinking about it.');
    expect(message.usage.output_tokens).toBe(5);
  });

  it('answers errors in the Anthropic shape (bad key, unknown model)', async () => {
    const bad = new Anthropic({ baseURL: server.url, apiKey: 'wrong', maxRetries: 0 });
    await expect(
      bad.messages.create({ model: 'echo', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
    await expect(
      client.messages.create({ model: 'ghost', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('accepts a bearer token too', async () => {
    const bearer = new Anthropic({ baseURL: server.url, apiKey: null, authToken: 'key-1', maxRetries: 0 });
    const message = await bearer.messages.create({
      model: 'echo',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'bearer' }],
    });
    expect(message.content.at(-1)).toMatchObject({ type: 'text', text: 'Echo: bearer' });
  });
});
