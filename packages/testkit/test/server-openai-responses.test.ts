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

const tools = [
  {
    type: 'function' as const,
    name: 'weather',
    description: 'Weather',
    parameters: { type: 'object' },
    strict: false,
  },
];

describe('Responses, streaming', () => {
  it('sends the real event sequence for reasoning, text and a function call', async () => {
    server = await startModelServer({
      steps: [
        {
          reasoning: { text: ['Plan', 'ning'], signature: 'enc-1' },
          text: ['It is ', 'sunny.'],
          toolCalls: [{ id: 'call_w', name: 'weather', arguments: { city: 'Paris' } }],
          usage: { inputTokens: 30, outputTokens: 12, reasoningTokens: 4 },
        },
      ],
    });
    const stream = await client().responses.create({
      model: 'gpt-test',
      input: 'weather?',
      tools,
      stream: true,
    });
    const events = [];
    for await (const event of stream) events.push(event);
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(types).toContain('response.reasoning_summary_text.delta');
    expect(types).toContain('response.output_text.delta');
    expect(types).toContain('response.function_call_arguments.done');
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const text = events
      .flatMap((event) => (event.type === 'response.output_text.delta' ? [event.delta] : []))
      .join('');
    expect(text).toBe('It is sunny.');
    const summary = events.flatMap((event) =>
      event.type === 'response.reasoning_summary_text.delta' ? [event.delta] : [],
    );
    expect(summary).toEqual(['Plan', 'ning']);
    const args = events
      .flatMap((event) => (event.type === 'response.function_call_arguments.delta' ? [event.delta] : []))
      .join('');
    expect(JSON.parse(args)).toEqual({ city: 'Paris' });
    const completed = events.at(-1);
    if (completed?.type !== 'response.completed') throw new Error('no response.completed');
    expect(completed.response.usage).toMatchObject({
      input_tokens: 30,
      output_tokens: 12,
      total_tokens: 42,
      output_tokens_details: { reasoning_tokens: 4 },
    });
    expect(completed.response.output.map((item) => item.type)).toEqual([
      'reasoning',
      'message',
      'function_call',
    ]);
    expect(completed.response.output[0]).toMatchObject({ encrypted_content: 'enc-1' });
    expect(completed.response.output[2]).toMatchObject({
      call_id: 'call_w',
      name: 'weather',
      arguments: '{"city":"Paris"}',
    });
  });

  it('works with the SDK stream helper (finalResponse, output_text)', async () => {
    server = await startModelServer({ steps: [{ text: ['Hi ', 'there'] }] });
    const stream = client().responses.stream({ model: 'gpt-test', input: 'hello' });
    const response = await stream.finalResponse();
    expect(response.output_text).toBe('Hi there');
    expect(response.status).toBe('completed');
  });

  it('the SDK stream helper accepts reasoning, refusal-free text and function calls in order', async () => {
    server = await startModelServer({
      steps: [
        {
          reasoning: [{ text: ['a', 'b'], signature: 'enc' }, { text: 'c' }],
          text: ['x', 'y'],
          toolCalls: [
            { name: 'weather', arguments: { city: 'Oslo' } },
            { name: 'weather', arguments: '{"city":' },
          ],
        },
      ],
    });
    const stream = client().responses.stream({ model: 'm', input: 'x', tools });
    const response = await stream.finalResponse();
    expect(response.output.map((item) => item.type)).toEqual([
      'reasoning',
      'reasoning',
      'message',
      'function_call',
      'function_call',
    ]);
    expect(response.output_text).toBe('xy');
    expect(response.output[4]).toMatchObject({ call_id: 'call_testkit_1_2', arguments: '{"city":' });
  });

  it('ends with response.incomplete and max_output_tokens for a length stop', async () => {
    server = await startModelServer({ steps: [{ text: 'cut', stopReason: 'length' }] });
    const stream = await client().responses.create({ model: 'm', input: 'x', stream: true });
    const events = [];
    for await (const event of stream) events.push(event);
    const last = events.at(-1);
    expect(last?.type).toBe('response.incomplete');
    expect(last?.type === 'response.incomplete' && last.response.incomplete_details).toEqual({
      reason: 'max_output_tokens',
    });
  });
});

describe('Responses, not streaming', () => {
  it('answers one response object with output items and usage', async () => {
    server = await startModelServer({
      steps: [
        { text: 'Calling.', toolCalls: [{ id: 'call_1', name: 'weather', arguments: '{"city":"Rome"}' }] },
      ],
    });
    const response = await client().responses.create({ model: 'gpt-test', input: 'x', tools });
    expect(response.object).toBe('response');
    expect(response.model).toBe('gpt-test');
    expect(response.output_text).toBe('Calling.');
    const call = response.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({
      call_id: 'call_1',
      name: 'weather',
      arguments: '{"city":"Rome"}',
      status: 'completed',
    });
    expect(response.usage?.total_tokens).toBe(
      (response.usage?.input_tokens ?? 0) + (response.usage?.output_tokens ?? 0),
    );
  });

  it('sends a refusal as a refusal content part', async () => {
    server = await startModelServer({ steps: [{ text: 'No.', stopReason: 'refusal' }] });
    const response = await client().responses.create({ model: 'm', input: 'x' });
    const message = response.output.find((item) => item.type === 'message');
    expect(message?.type === 'message' && message.content[0]).toEqual({ type: 'refusal', refusal: 'No.' });
  });
});
