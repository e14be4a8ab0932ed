import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiHeadend, type ServedHeadend, serve } from '../src/index.js';
import { echoAnswer, finalReport, lastUserText, startAgents, type TestAgents } from './helpers/agents.js';

let agents: TestAgents;
let server: ServedHeadend;
let client: OpenAI;

beforeAll(async () => {
  agents = await startAgents((request) => {
    const prompt = lastUserText(request.messages);
    if (prompt.startsWith('json:')) {
      return { text: finalReport('{"answer": 42}', 'json'), usage: { inputTokens: 7, outputTokens: 3 } };
    }
    return echoAnswer(request);
  });
  server = await serve(createOpenAiHeadend({ catalog: agents.catalog, tokens: ['secret'] }));
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'secret', maxRetries: 0 });
});

afterAll(async () => {
  await server.close();
  await agents.close();
});

describe('OpenAI-compatible headend with the official client', () => {
  it('lists the agents as models', async () => {
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(['echo']);
  });

  it('answers a chat completion with the final report and the summed usage', async () => {
    const completion = await client.chat.completions.create({
      model: 'echo',
      messages: [
        { role: 'user', content: 'earlier question' },
        { role: 'assistant', content: 'earlier answer' },
        { role: 'user', content: 'hello there' },
      ],
    });
    expect(completion.choices[0]?.message.content).toBe('Echo: hello there');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.prompt_tokens).toBe(10);
    expect(completion.usage?.completion_tokens).toBe(5);
    const seen = agents.model.requests.at(-1)?.messages.map((m) => m.content) ?? [];
    expect(seen).toContain('earlier question');
    expect(seen).toContain('earlier answer');
  });

  it('streams the report and reasoning, with usage in the last chunk', async () => {
    const stream = await client.chat.completions.create({
      model: 'echo',
      messages: [{ role: 'user', content: 'stream me' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = '';
    let reasoning = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { content?: string; reasoning_content?: string } | undefined;
      content += delta?.content ?? '';
      reasoning += delta?.reasoning_content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(content).toBe('Echo: stream me');
    expect(reasoning).toContain('Thinking about it.');
    expect(finish).toBe('stop');
    expect(usage?.total_tokens).toBe(15);
  });

  it('streams chunks in the exact JSON OpenAI writes (field order, nulls) and ends with [DONE]', async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer secret', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'echo',
        stream: true,
        messages: [{ role: 'user', content: 'wire "quoted"' }],
      }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const body = await response.text();
    const events = body.split('\n\n').filter((event) => event !== '');
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((event) => {
      expect(event.startsWith('data: ')).toBe(true);
      return event.slice(6);
    });
    const first = JSON.parse(chunks[0]!) as { id: string; created: number };
    expect(first.id).toMatch(/^chatcmpl-/);
    const exact = (delta: Record<string, unknown>, finish: string | null) =>
      JSON.stringify({
        id: first.id,
        object: 'chat.completion.chunk',
        created: first.created,
        model: 'echo',
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      });
    expect(chunks[0]).toBe(exact({ role: 'assistant', content: '' }, null));
    expect(chunks.at(-1)).toBe(exact({}, 'stop'));
    let content = '';
    for (const chunk of chunks.slice(1, -1)) {
      const parsed = JSON.parse(chunk) as { choices: { delta: Record<string, string> }[] };
      const delta = parsed.choices[0]!.delta;
      expect(chunk).toBe(exact(delta, null));
      content += delta.content ?? '';
    }
    expect(content).toBe('Echo: wire "quoted"');
  });

  it('maps response_format json_schema to the json output contract', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] };
    const completion = await client.chat.completions.create({
      model: 'echo',
      messages: [{ role: 'user', content: 'json: the answer' }],
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } },
    });
    expect(JSON.parse(completion.choices[0]?.message.content ?? '')).toEqual({ answer: 42 });
  });

  it('refuses requests that bring their own tools with a 400', async () => {
    const call = client.chat.completions.create({
      model: 'echo',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
    });
    await expect(call).rejects.toMatchObject({ status: 400, type: 'invalid_request_error' });
  });

  it('answers an unknown model with 404 in the OpenAI error shape', async () => {
    const call = client.chat.completions.create({
      model: 'nope',
      messages: [{ role: 'user', content: 'hi' }],
    });
    await expect(call).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
  });
});
