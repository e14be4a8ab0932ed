import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../src/index.js';

let server: ModelServer;
afterEach(async () => {
  await server.close();
});

function client(): OpenAI {
  return new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test', maxRetries: 0 });
}

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'weather',
    description: 'Weather in a city',
    parameters: { type: 'object', properties: {} },
  },
};

describe('Chat Completions, streaming', () => {
  it('streams text deltas, the finish reason and the usage chunk, then [DONE]', async () => {
    server = await startModelServer({
      steps: [{ text: ['Hel', 'lo'], usage: { inputTokens: 11, outputTokens: 2 } }],
    });
    const stream = await client().chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('Hello');
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.at(-1)?.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 });
    expect(
      chunks.every((chunk) => chunk.model === 'gpt-test' && chunk.object === 'chat.completion.chunk'),
    ).toBe(true);
  });

  it('sends no usage chunk unless include_usage is asked for', async () => {
    server = await startModelServer({ steps: [{ text: 'x' }] });
    const stream = await client().chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);
  });

  it('streams tool calls as the real API does and the SDK rebuilds the arguments', async () => {
    server = await startModelServer({
      steps: [
        {
          text: 'Checking.',
          toolCalls: [
            { id: 'call_1', name: 'weather', arguments: { city: 'Paris', units: 'metric' } },
            { name: 'weather', arguments: { city: 'Rome' } },
          ],
        },
      ],
    });
    const runner = client().chat.completions.stream({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [weatherTool],
    });
    const chunks = [];
    for await (const chunk of runner) chunks.push(chunk);
    const final = await runner.finalChatCompletion();
    const message = final.choices[0]?.message;
    expect(message?.content).toBe('Checking.');
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(
      message?.tool_calls?.map(
        (call) =>
          call.type === 'function' && [call.id, call.function.name, JSON.parse(call.function.arguments)],
      ),
    ).toEqual([
      ['call_1', 'weather', { city: 'Paris', units: 'metric' }],
      ['call_testkit_1_2', 'weather', { city: 'Rome' }],
    ]);
    // The first delta of a call carries index, id, type, name and "" arguments; fragments follow.
    const toolDeltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(toolDeltas[0]).toEqual({
      index: 0,
      id: 'call_1',
      type: 'function',
      function: { name: 'weather', arguments: '' },
    });
    expect(toolDeltas[1]).toEqual({ index: 0, function: { arguments: expect.any(String) } });
    expect(toolDeltas.filter((delta) => delta.index === 0).length).toBeGreaterThan(2);
  });

  it('sends invalid JSON arguments verbatim', async () => {
    server = await startModelServer({
      steps: [{ toolCalls: [{ id: 'c', name: 'weather', arguments: '{"city": "Par' }] }],
    });
    const runner = client().chat.completions.stream({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
    });
    const final = await runner.finalChatCompletion();
    const call = final.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' && call.function.arguments).toBe('{"city": "Par');
  });

  it('streams reasoning in reasoning_content (or reasoning) deltas', async () => {
    server = await startModelServer({
      steps: [
        { reasoning: { text: ['Think', 'ing'] }, text: 'Answer' },
        { reasoning: { text: 'Groq style' }, text: 'A', chatReasoningField: 'reasoning' },
      ],
    });
    for (const field of ['reasoning_content', 'reasoning']) {
      const stream = await client().chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'x' }],
        stream: true,
      });
      let reasoning = '';
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta as Record<string, unknown> | undefined;
        if (typeof delta?.[field] === 'string') reasoning += delta[field];
      }
      expect(reasoning).toBe(field === 'reasoning' ? 'Groq style' : 'Thinking');
    }
  });
});

describe('Chat Completions, not streaming', () => {
  it('answers one completion with text, tool calls, finish reason and usage', async () => {
    server = await startModelServer({
      steps: [
        {
          text: 'Sure.',
          toolCalls: [{ id: 'call_9', name: 'weather', arguments: { city: 'Oslo' } }],
          usage: { inputTokens: 20, outputTokens: 5, cachedTokens: 8, reasoningTokens: 2 },
        },
      ],
    });
    const completion = await client().chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'weather in Oslo?' }],
      tools: [weatherTool],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('gpt-test');
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBe('Sure.');
    expect(choice?.message.tool_calls).toEqual([
      { id: 'call_9', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
    ]);
    expect(completion.usage).toMatchObject({
      prompt_tokens: 20,
      completion_tokens: 5,
      total_tokens: 25,
      prompt_tokens_details: { cached_tokens: 8 },
      completion_tokens_details: { reasoning_tokens: 2 },
    });
  });

  it('maps stop reasons: length, refusal (in the refusal field) and a raw word', async () => {
    server = await startModelServer({
      steps: [
        { text: 'cut', stopReason: 'length' },
        { text: 'I cannot help with that.', stopReason: 'refusal' },
        { text: 'x', stopReason: 'other', rawStopReason: 'eos_token' },
      ],
    });
    const ask = () =>
      client().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect((await ask()).choices[0]?.finish_reason).toBe('length');
    const refusal = (await ask()).choices[0];
    expect(refusal?.message).toMatchObject({ content: null, refusal: 'I cannot help with that.' });
    expect(refusal?.finish_reason).toBe('stop');
    expect((await ask()).choices[0]?.finish_reason as string).toBe('eos_token');
  });
});
