import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../src/index.js';

let server: ModelServer;
afterEach(async () => {
  await server.close();
});

const openai = (options: { maxRetries?: number } = {}) =>
  new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-secret-openai', maxRetries: 0, ...options });
const anthropic = () => new Anthropic({ baseURL: server.url, apiKey: 'sk-ant-secret', maxRetries: 0 });
const weather = {
  name: 'weather',
  description: 'Weather in a city',
  inputSchema: { type: 'object', properties: {} },
};

describe('recorded requests', () => {
  it('Chat Completions: messages back in protocol terms, tools, options, body and redacted headers', async () => {
    server = await startModelServer({ steps: [{ text: 'ok' }] });
    await openai().chat.completions.create({
      model: 'gpt-test',
      temperature: 0.3,
      max_completion_tokens: 200,
      reasoning_effort: 'low',
      tool_choice: 'auto',
      tools: [
        {
          type: 'function',
          function: { name: 'weather', description: 'Weather in a city', parameters: weather.inputSchema },
        },
      ],
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      ],
    });
    const [recorded] = server.requests;
    expect(recorded).toMatchObject({
      api: 'openai-chat',
      model: 'gpt-test',
      route: 'POST /v1/chat/completions',
      tools: [weather],
      options: {
        stream: false,
        temperature: 0.3,
        maxOutputTokens: 200,
        reasoning: { effort: 'low' },
        toolChoice: 'auto',
      },
    });
    expect(recorded?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'c1', name: 'weather', arguments: { city: 'Paris' }, rawArguments: '{"city":"Paris"}' },
        ],
      },
      { role: 'tool', toolCallId: 'c1', toolName: 'weather', content: 'sunny' },
    ]);
    expect(recorded?.headers?.authorization).toBe('[redacted]');
    expect(JSON.stringify(server.requests)).not.toContain('sk-secret-openai');
    expect(recorded?.body).toMatchObject({ model: 'gpt-test' });
  });

  it('Responses: instructions, input items, reasoning items and function call outputs', async () => {
    server = await startModelServer({ steps: [{ text: 'ok' }] });
    await openai().responses.create({
      model: 'gpt-test',
      instructions: 'Be brief.',
      max_output_tokens: 300,
      reasoning: { effort: 'high' },
      tools: [
        {
          type: 'function',
          name: 'weather',
          description: 'Weather in a city',
          parameters: weather.inputSchema,
          strict: false,
        },
      ],
      input: [
        { role: 'user', content: 'Weather?' },
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: 'Need a tool.' }],
          encrypted_content: 'enc',
        },
        { type: 'function_call', call_id: 'c1', name: 'weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'c1', output: 'rain' },
      ],
    });
    const [recorded] = server.requests;
    expect(recorded).toMatchObject({
      api: 'openai-responses',
      tools: [weather],
      options: { maxOutputTokens: 300, reasoning: { effort: 'high' } },
    });
    expect(recorded?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: '',
        reasoning: [{ text: 'Need a tool.', providerData: { id: 'rs_1', encrypted_content: 'enc' } }],
        toolCalls: [
          { id: 'c1', name: 'weather', arguments: { city: 'Rome' }, rawArguments: '{"city":"Rome"}' },
        ],
      },
      { role: 'tool', toolCallId: 'c1', toolName: 'weather', content: 'rain' },
    ]);
  });

  it('Anthropic: system, thinking with signature, tool_use, tool_result, and x-api-key redacted', async () => {
    server = await startModelServer({ steps: [{ text: 'ok' }] });
    await anthropic().messages.create({
      model: 'claude-test',
      max_tokens: 500,
      system: 'Be brief.',
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tool_choice: { type: 'any' },
      tools: [
        {
          name: 'weather',
          description: 'Weather in a city',
          input_schema: { type: 'object', properties: {} },
        },
      ],
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Use the tool.', signature: 'sig' },
            { type: 'tool_use', id: 't1', name: 'weather', input: { city: 'Oslo' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't1', content: 'snow', is_error: true }],
        },
      ],
    });
    const [recorded] = server.requests;
    expect(recorded).toMatchObject({
      api: 'anthropic',
      model: 'claude-test',
      tools: [weather],
      options: { maxOutputTokens: 500, reasoning: { budgetTokens: 1024 }, toolChoice: 'required' },
    });
    expect(recorded?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: '',
        reasoning: [{ text: 'Use the tool.', signature: 'sig' }],
        toolCalls: [{ id: 't1', name: 'weather', arguments: { city: 'Oslo' } }],
      },
      { role: 'tool', toolCallId: 't1', toolName: 'weather', content: 'snow', isError: true },
    ]);
    // @anthropic-ai/sdk 1.x sends the key as `authorization: Bearer`; older clients use x-api-key.
    expect(recorded?.headers?.authorization ?? recorded?.headers?.['x-api-key']).toBe('[redacted]');
    expect(recorded?.headers?.['anthropic-version']).toBeDefined();
    expect(JSON.stringify(server.requests)).not.toContain('sk-ant-secret');
  });
});

describe('header redaction', () => {
  it('redacts x-api-key, api-key and authorization, and keeps the rest', async () => {
    server = await startModelServer({ steps: [{ text: 'ok' }] });
    await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: {
        'x-api-key': 'k1',
        'api-key': 'k2',
        authorization: 'Bearer k3',
        'anthropic-version': '2023-06-01',
      },
      body: JSON.stringify({ model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(server.requests[0]?.headers).toMatchObject({
      'x-api-key': '[redacted]',
      'api-key': '[redacted]',
      authorization: '[redacted]',
      'anthropic-version': '2023-06-01',
    });
  });
});

describe('steps, handler and routes', () => {
  it('consumes steps in order across all APIs; function steps see the recorded request', async () => {
    server = await startModelServer({
      steps: [{ text: 'one' }, (request) => ({ text: `two via ${request.api}` }), { text: 'three' }],
    });
    const chat = await openai().chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
    });
    const message = await anthropic().messages.create({
      model: 'c',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x' }],
    });
    const response = await openai().responses.create({ model: 'm', input: 'x' });
    expect(chat.choices[0]?.message.content).toBe('one');
    expect(message.content[0]).toMatchObject({ text: 'two via anthropic' });
    expect(response.output_text).toBe('three');
    expect(server.calls).toBe(3);
    server.assertAllConsumed();
  });

  it('an unplanned call answers 500 with a clear message, is recorded, and is not retried', async () => {
    server = await startModelServer({ steps: [] });
    const caught = await openai({ maxRetries: 2 })
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })
      .catch((thrown: unknown) => thrown);
    expect(caught).toBeInstanceOf(OpenAI.InternalServerError);
    expect((caught as Error).message).toBe(
      '500 model server: call #1 was not planned (only 0 steps) - POST /v1/chat/completions',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('a step function that throws answers 500 naming it', async () => {
    server = await startModelServer({
      steps: [
        () => {
          throw new Error('bad script');
        },
      ],
    });
    const caught = await openai()
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })
      .catch((thrown: unknown) => thrown);
    expect(caught).toBeInstanceOf(OpenAI.InternalServerError);
    expect((caught as Error).message).toMatch(
      /the step function threw for POST \/v1\/chat\/completions: bad script/,
    );
  });

  it('assertAllConsumed names the unused steps; push adds more', async () => {
    server = await startModelServer({ steps: [{ text: 'a' }, { text: 'b' }] });
    await openai().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(() => server.assertAllConsumed()).toThrow('model server: 1 of 2 planned steps was not used');
    server.push({ text: 'c' });
    expect(server.remaining).toBe(2);
  });

  it('a handler answers every call', async () => {
    let n = 0;
    server = await startModelServer({
      handler: (request) => ({ text: `answer ${++n} to ${request.model}` }),
    });
    for (const expected of ['answer 1 to m', 'answer 2 to m']) {
      const chat = await openai().chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'x' }],
      });
      expect(chat.choices[0]?.message.content).toBe(expected);
    }
    expect(server.calls).toBe(2);
    expect(() => server.assertAllConsumed()).not.toThrow();
  });

  it('lists models in the OpenAI and the Anthropic shapes', async () => {
    server = await startModelServer({ models: ['alpha', 'beta'] });
    const openaiModels = [];
    for await (const model of openai().models.list()) openaiModels.push(model.id);
    expect(openaiModels).toEqual(['alpha', 'beta']);
    const anthropicModels = [];
    for await (const model of anthropic().models.list()) anthropicModels.push(model.id);
    expect(anthropicModels).toEqual(['alpha', 'beta']);
  });

  it('accepts routes without the /v1 prefix and answers 404 elsewhere', async () => {
    server = await startModelServer({ steps: [{ text: 'no prefix' }] });
    const bare = new OpenAI({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
    const chat = await bare.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(chat.choices[0]?.message.content).toBe('no prefix');
    const missing = await fetch(`${server.url}/v1/embeddings`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(
      /no route for POST \/v1\/embeddings/,
    );
  });

  it('waits delayMs before answering', async () => {
    server = await startModelServer({ steps: [{ text: 'late', delayMs: 150 }] });
    const started = performance.now();
    await openai().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });
});

describe('close', () => {
  it('resolves promptly with hung requests open, and the clients see the connection end', async () => {
    server = await startModelServer({
      steps: [{ fault: 'hang' }, { fault: 'hang-after-headers' }, { text: 'x', delayMs: 60_000 }],
    });
    const calls = [0, 1, 2].map(() =>
      openai()
        .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })
        .catch((thrown: unknown) => thrown),
    );
    while (server.calls < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    const started = performance.now();
    await server.close();
    expect(performance.now() - started).toBeLessThan(1_000);
    const outcomes = await Promise.all(calls);
    for (const outcome of outcomes) expect(outcome).toBeInstanceOf(Error);
  });
});

describe('scope prefix', () => {
  it('names the client in RecordedRequest.scope, decoded, before the flavour and /v1', async () => {
    server = await startModelServer({ handler: (request) => ({ text: `scope ${request.scope}` }) });
    const scoped = new OpenAI({
      baseURL: `${server.url}/scope/${encodeURIComponent('lead.helper#1')}/mistral/v1`,
      apiKey: 'k',
      maxRetries: 0,
    });
    const answer = await scoped.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.choices[0]?.message.content).toBe('scope lead.helper#1');
    await openai().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(server.requests.map((r) => [r.scope, r.flavour])).toEqual([
      ['lead.helper#1', 'mistral'],
      [undefined, undefined],
    ]);
  });

  it('a malformed or overlong scope is a 404 that says what a scope is', async () => {
    server = await startModelServer({ steps: [] });
    for (const scope of ['%E0%A4%A', '', 'x'.repeat(257), '%00']) {
      const response = await fetch(`${server.url}/scope/${scope}/v1/chat/completions`, {
        method: 'POST',
        body: '{}',
      });
      expect(response.status).toBe(404);
      expect(await response.text()).toMatch(/not valid percent-encoding|a scope is 1-256 characters/);
    }
    expect(server.requests).toHaveLength(0);
  });
});
