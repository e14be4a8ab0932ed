import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultFixturesDir, type ModelServer, startModelServer } from '../src/index.js';

let server: ModelServer;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
});

const fixtures = defaultFixturesDir();
const read = (file: string) => readFileSync(join(fixtures, file), 'utf8');
const lines = (file: string) =>
  read(file)
    .split('\n')
    .filter((line) => line.trim() !== '');

const openai = () => new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test', maxRetries: 0 });
const anthropic = () => new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
const chatRequest = { model: 'any', messages: [{ role: 'user' as const, content: 'x' }] };

describe('fixtures directory', () => {
  it('defaults to the recorded streams inside the package, with their licence, and honours AGENT_FIXTURES_DIR', () => {
    expect(fixtures).toBe(fileURLToPath(new URL('../fixtures/provider-streams', import.meta.url)));
    for (const file of ['README.md', 'LICENSE', 'NOTICE', 'openai-chat/groq-tool-call.chunks.txt']) {
      expect(existsSync(join(fixtures, file)), file).toBe(true);
    }
    vi.stubEnv('AGENT_FIXTURES_DIR', '/tmp/elsewhere');
    expect(defaultFixturesDir()).toBe('/tmp/elsewhere');
  });
});

describe('replay, byte for byte', () => {
  it('sends *.chunks.txt lines as data events (+ [DONE] for Chat Completions)', async () => {
    server = await startModelServer({ steps: [{ replay: 'openai-chat/groq-tool-call.chunks.txt' }] });
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...chatRequest, stream: true }),
    });
    const expected = `${lines('openai-chat/groq-tool-call.chunks.txt')
      .map((line) => `data: ${line}\n\n`)
      .join('')}data: [DONE]\n\n`;
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await response.text()).toBe(expected);
  });

  it('adds the event: line for Anthropic and Responses recordings', async () => {
    server = await startModelServer({ steps: [{ replay: 'anthropic/anthropic-text.chunks.txt' }] });
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ stream: true }),
    });
    const expected = lines('anthropic/anthropic-text.chunks.txt')
      .map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`)
      .join('');
    expect(await response.text()).toBe(expected);
  });

  it('sends *.sse exactly as recorded', async () => {
    server = await startModelServer({ steps: [{ replay: 'openai-chat/anthropic-fallback-tool-call.sse' }] });
    const response = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(await response.text()).toBe(read('openai-chat/anthropic-fallback-tool-call.sse'));
  });

  it('answers HTTP 500 naming the file when a fixture is missing', async () => {
    server = await startModelServer({ steps: [{ replay: 'openai-chat/nope.chunks.txt' }] });
    const error = await openai()
      .chat.completions.create(chatRequest)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as Error).message).toMatch(
      /replay fixture "openai-chat\/nope.chunks.txt" cannot be read at .*nope\.chunks\.txt/,
    );
  });
});

describe('replay reaches the OpenAI SDK intact', () => {
  it('openai-chat: a Groq tool call, with usage', async () => {
    server = await startModelServer({ steps: [{ replay: 'openai-chat/groq-tool-call.chunks.txt' }] });
    const final = await openai().chat.completions.stream(chatRequest).finalChatCompletion();
    const call = final.choices[0]?.message.tool_calls?.[0];
    expect(call).toMatchObject({
      id: 'tk85n1k4m',
      type: 'function',
      function: { name: 'weather', arguments: '{}' },
    });
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('openai-chat: the raw .sse of a gateway tool call, text and arguments', async () => {
    server = await startModelServer({ steps: [{ replay: 'openai-chat/anthropic-fallback-tool-call.sse' }] });
    const stream = await openai().chat.completions.create({ ...chatRequest, stream: true });
    let text = '';
    let args = '';
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      args +=
        chunk.choices[0]?.delta.tool_calls?.map((call) => call.function?.arguments ?? '').join('') ?? '';
    }
    expect(text).toBe('Reading it.');
    expect(JSON.parse(args)).toEqual({ path: 'a.txt' });
  });

  it('openai-chat: a non-streaming body', async () => {
    server = await startModelServer({ steps: [{ replay: 'openai-chat/openai-text.json' }] });
    const completion = await openai().chat.completions.create(chatRequest);
    const recorded = JSON.parse(read('openai-chat/openai-text.json')) as OpenAI.ChatCompletion;
    expect(completion).toEqual(recorded);
  });

  it('openai-responses: an Azure function call with its usage', async () => {
    server = await startModelServer({ steps: [{ replay: 'openai-responses/azure-tool-call.1.chunks.txt' }] });
    const response = await openai().responses.stream({ model: 'any', input: 'x' }).finalResponse();
    const call = response.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({
      call_id: 'call_H5DxLSFnsGhiROnUiDHmgyc8',
      name: 'weather',
      arguments: '{"location":"San Francisco"}',
    });
    expect(response.usage).toMatchObject({ input_tokens: 45, output_tokens: 24, total_tokens: 69 });
  });

  it('openai-responses: a recorded error event raises an APIError', async () => {
    server = await startModelServer({ steps: [{ replay: 'openai-responses/openai-error.1.chunks.txt' }] });
    const stream = await openai().responses.create({ model: 'any', input: 'x', stream: true });
    const error = await (async () => {
      for await (const _event of stream) {
        // drain
      }
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ code: 'insufficient_quota' });
  });

  it('openai-responses: a non-streaming body with encrypted reasoning', async () => {
    server = await startModelServer({
      steps: [{ replay: 'openai-responses/openai-reasoning-encrypted-content.1.json' }],
    });
    const response = await openai().responses.create({ model: 'any', input: 'x' });
    const recorded = JSON.parse(read('openai-responses/openai-reasoning-encrypted-content.1.json')) as {
      output: unknown[];
    };
    expect(response.output).toEqual(recorded.output);
  });
});

describe('replay reaches the Anthropic SDK intact', () => {
  const base = { model: 'any', max_tokens: 100, messages: [{ role: 'user' as const, content: 'x' }] };

  it('anthropic: thinking with its signature, then text', async () => {
    server = await startModelServer({
      steps: [{ replay: 'anthropic/anthropic-clear-thinking.1.chunks.txt' }],
    });
    const message = await anthropic().messages.stream(base).finalMessage();
    const signature = lines('anthropic/anthropic-clear-thinking.1.chunks.txt')
      .map((line) => JSON.parse(line) as { delta?: { signature?: string } })
      .find((event) => event.delta?.signature !== undefined)?.delta?.signature;
    expect(message.content[0]).toEqual({
      type: 'thinking',
      thinking: 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185',
      signature,
    });
    expect(message.content[1]).toEqual({ type: 'text', text: '925 ÷ 5 = 185' });
    expect(message.stop_reason).toBe('end_turn');
  });

  it('anthropic: a tool_use whose input arrives in fragments', async () => {
    server = await startModelServer({ steps: [{ replay: 'anthropic/anthropic-json-tool.2.chunks.txt' }] });
    const message = await anthropic().messages.stream(base).finalMessage();
    expect(message.content[1]).toEqual({
      type: 'tool_use',
      id: 'toolu_01KFbKqPYSuAKujiL6mTfzYA',
      name: 'json',
      input: { elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] },
    });
    expect(message.usage.output_tokens).toBe(47);
  });

  it('anthropic: a non-streaming body', async () => {
    server = await startModelServer({ steps: [{ replay: 'anthropic/anthropic-text.json' }] });
    const message = await anthropic().messages.create(base);
    expect(message).toEqual(JSON.parse(read('anthropic/anthropic-text.json')));
  });
});
