import { isModelError, type ModelError, type ModelRequest } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { scriptedModel, UnplannedCallError } from '../src/index.js';
import { collect, failure, hello } from './helpers.js';

describe('scriptedModel answers', () => {
  it('streams text deltas, usage and finish in order', async () => {
    const model = scriptedModel([{ text: ['Hel', 'lo', '!'], usage: { inputTokens: 7, outputTokens: 3 } }]);
    const events = await collect(model, hello);
    expect(events).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'text-delta', text: '!' },
      { type: 'usage', usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 } },
      { type: 'finish', stopReason: 'stop', rawStopReason: 'stop', responseId: 'scripted-1' },
    ]);
    expect(model.provider).toBe('scripted');
    expect(model.model).toBe('scripted-model');
  });

  it('sends a whole string as one delta and estimates usage at ~4 characters per token', async () => {
    const model = scriptedModel([{ text: 'twelve chars' }], { provider: 'openai', model: 'gpt-test' });
    const events = await collect(model, hello);
    expect(events[0]).toEqual({ type: 'text-delta', text: 'twelve chars' });
    const usage = events.find((event) => event.type === 'usage');
    const inputChars = JSON.stringify([hello.messages, []]).length;
    expect(usage).toEqual({
      type: 'usage',
      usage: {
        inputTokens: Math.ceil(inputChars / 4),
        outputTokens: 3,
        totalTokens: Math.ceil(inputChars / 4) + 3,
      },
    });
    expect(model.provider).toBe('openai');
    expect(model.model).toBe('gpt-test');
  });

  it('streams reasoning blocks with the signature on the last delta of each block', async () => {
    const model = scriptedModel([
      {
        reasoning: [
          { text: ['Let me ', 'think.'], signature: 'sig-1' },
          { text: 'Again.', signature: 'sig-2' },
        ],
        text: 'Done',
      },
    ]);
    const events = await collect(model, hello);
    expect(events.slice(0, 4)).toEqual([
      { type: 'reasoning-delta', text: 'Let me ' },
      { type: 'reasoning-delta', text: 'think.', signature: 'sig-1' },
      { type: 'reasoning-delta', text: 'Again.', signature: 'sig-2' },
      { type: 'text-delta', text: 'Done' },
    ]);
    const usage = events.find((event) => event.type === 'usage');
    expect(usage?.type === 'usage' && usage.usage.reasoningTokens).toBe(
      Math.ceil('Let me think.Again.'.length / 4),
    );
  });

  it('yields one tool-call per call, with ids, and defaults the stop reason to tool_calls', async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 'call_a', name: 'read_file', arguments: { path: 'a.txt' } },
          { name: 'grep', arguments: '{"pattern":"x"}' },
        ],
      },
    ]);
    const events = await collect(model, hello);
    expect(events.filter((event) => event.type === 'tool-call')).toEqual([
      { type: 'tool-call', call: { id: 'call_a', name: 'read_file', arguments: { path: 'a.txt' } } },
      {
        type: 'tool-call',
        call: { id: 'call_1_2', name: 'grep', arguments: { pattern: 'x' }, rawArguments: '{"pattern":"x"}' },
      },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'finish', stopReason: 'tool_calls' });
  });

  it('gives {} with rawArguments and parseError for arguments that are not a JSON object', async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'broken', arguments: '{"path": "a.txt"' },
          { name: 'list', arguments: '[1,2]' },
        ],
      },
    ]);
    const calls = (await collect(model, hello)).flatMap((event) =>
      event.type === 'tool-call' ? [event.call] : [],
    );
    expect(calls[0]).toMatchObject({ name: 'broken', arguments: {}, rawArguments: '{"path": "a.txt"' });
    expect(calls[0]?.parseError).toMatch(/not valid JSON/);
    expect(calls[1]).toMatchObject({
      arguments: {},
      rawArguments: '[1,2]',
      parseError: expect.stringMatching(/an array/),
    });
  });

  it('reports scripted usage, stop reason and raw stop word', async () => {
    const model = scriptedModel([
      {
        text: 'cut',
        stopReason: 'length',
        rawStopReason: 'max_tokens',
        usage: { inputTokens: 100, outputTokens: 4096, cachedTokens: 60, costUsd: 0.01 },
      },
    ]);
    const events = await collect(model, hello);
    expect(events.slice(-2)).toEqual([
      {
        type: 'usage',
        usage: { inputTokens: 100, outputTokens: 4096, cachedTokens: 60, costUsd: 0.01, totalTokens: 4196 },
      },
      { type: 'finish', stopReason: 'length', rawStopReason: 'max_tokens', responseId: 'scripted-1' },
    ]);
  });

  it('answers with a function of the request, sync or async', async () => {
    const model = scriptedModel([
      (request) => ({ text: `you said: ${request.messages.at(-1)?.content}` }),
      async (request) => ({ text: `tools: ${request.tools.map((tool) => tool.name).join(',')}` }),
    ]);
    const first = await collect(model, hello);
    expect(first[0]).toEqual({ type: 'text-delta', text: 'you said: Hello there' });
    const tools = [{ name: 'grep', description: 'search', inputSchema: { type: 'object' } }];
    const second = await collect(model, { ...hello, tools });
    expect(second[0]).toEqual({ type: 'text-delta', text: 'tools: grep' });
  });
});

describe('scriptedModel errors', () => {
  it('throws a ModelError of the scripted kind with message, retryAfterMs and status', async () => {
    const model = scriptedModel([
      { error: { kind: 'rate_limit', message: 'slow down', retryAfterMs: 1500, status: 429 } },
    ]);
    const { error, events } = await failure(model, hello);
    expect(events).toEqual([]);
    expect(isModelError(error)).toBe(true);
    expect(error).toMatchObject({
      kind: 'rate_limit',
      message: 'slow down',
      retryable: true,
      retryAfterMs: 1500,
      status: 429,
      provider: 'scripted',
      model: 'scripted-model',
    });
  });

  it.each([
    'auth',
    'quota',
    'timeout',
    'network',
    'server',
    'bad_request',
    'context_length',
    'model_not_found',
    'content_filter',
    'invalid_response',
    'aborted',
  ] as const)('throws kind %s with a message naming the call', async (kind) => {
    const model = scriptedModel([{ error: { kind } }]);
    const { error } = await failure(model, hello);
    expect((error as ModelError).kind).toBe(kind);
    expect((error as ModelError).message).toBe(`scriptedModel: call #1 failed with a scripted ${kind} error`);
  });

  it('fails mid-stream after the text when the error is midStream', async () => {
    const model = scriptedModel([
      { text: ['partial ', 'answer'], error: { kind: 'server', midStream: true } },
    ]);
    const { error, events } = await failure(model, hello);
    expect(events.map((event) => event.type)).toEqual(['text-delta', 'text-delta']);
    expect((error as ModelError).kind).toBe('server');
  });

  it('throws a plain error naming the call for a call no step was planned for, and records it', async () => {
    const model = scriptedModel([{ text: 'one' }]);
    await collect(model, hello);
    const { error } = await failure(model, hello);
    expect(error).toBeInstanceOf(UnplannedCallError);
    expect(isModelError(error)).toBe(false);
    expect((error as Error).message).toBe('scriptedModel: call #2 was not planned (only 1 step)');
    expect(model.calls).toBe(2);
    expect(model.requests).toHaveLength(2);
  });

  it('assertAllConsumed names the steps left over, and passes once they are used', async () => {
    const model = scriptedModel([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    await collect(model, hello);
    expect(model.remaining).toBe(2);
    expect(() => model.assertAllConsumed()).toThrow(
      'scriptedModel: 2 of 3 planned steps were not used (next unused is step #2; 1 call made)',
    );
    await collect(model, hello);
    await collect(model, hello);
    expect(() => model.assertAllConsumed()).not.toThrow();
  });

  it('takes more steps with push', async () => {
    const model = scriptedModel([]);
    model.push({ text: 'late' });
    expect((await collect(model, hello))[0]).toEqual({ type: 'text-delta', text: 'late' });
    model.assertAllConsumed();
  });
});

describe('scriptedModel faults (what a provider client makes of them)', () => {
  it('hang waits for the signal or timeout, then fails with timeout', async () => {
    const model = scriptedModel([{ fault: 'hang', text: 'never' }]);
    const { error, events, elapsedMs } = await failure(model, hello, { timeoutMs: 50 });
    expect(events).toEqual([]);
    expect(error).toMatchObject({ kind: 'timeout' });
    expect(elapsedMs).toBeLessThan(1_000);
  });

  it('cut-stream yields half the events, then fails with network', async () => {
    const model = scriptedModel([{ text: ['a', 'b', 'c', 'd'], fault: 'cut-stream' }]);
    const { error, events } = await failure(model, hello);
    expect(events).toEqual([
      { type: 'text-delta', text: 'a' },
      { type: 'text-delta', text: 'b' },
      { type: 'text-delta', text: 'c' },
    ]);
    expect(error).toMatchObject({ kind: 'network', retryable: true });
    expect((error as Error).message).toMatch(/cut-stream/);
  });

  it('malformed-sse yields the first event, then fails with invalid_response', async () => {
    const model = scriptedModel([{ text: ['a', 'b'], fault: 'malformed-sse' }]);
    const { error, events } = await failure(model, hello);
    expect(events).toEqual([{ type: 'text-delta', text: 'a' }]);
    expect(error).toMatchObject({ kind: 'invalid_response' });
  });

  it('a replay step fails loudly: recordings need the HTTP server', async () => {
    const model = scriptedModel([{ replay: 'openai-chat/groq-text.chunks.txt' }]);
    const { error } = await failure(model, hello);
    expect((error as Error).message).toBe(
      'scriptedModel: call #1 is a replay step (openai-chat/groq-text.chunks.txt); replays need startModelServer',
    );
  });
});

describe('scriptedModel signal and timeout', () => {
  it('ends promptly with aborted when the signal fires during the delay', async () => {
    const model = scriptedModel([{ delayMs: 5_000, text: 'never' }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const { error, events, elapsedMs } = await failure(model, hello, { signal: controller.signal });
    expect(events).toEqual([]);
    expect(error).toMatchObject({ name: 'ModelError', kind: 'aborted', retryable: false });
    expect((error as Error).message).toBe('scriptedModel: call #1 was aborted by the caller');
    expect(elapsedMs).toBeLessThan(1_000);
  });

  it('ends promptly with aborted when the signal fires between tokens', async () => {
    const model = scriptedModel([{ text: ['a', 'b', 'c', 'd'], tokenDelayMs: 2_000 }]);
    const controller = new AbortController();
    const started = performance.now();
    const events = [];
    let caught: unknown;
    try {
      for await (const event of model.stream(hello, { signal: controller.signal })) {
        events.push(event);
        controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(events).toEqual([{ type: 'text-delta', text: 'a' }]);
    expect(caught).toMatchObject({ kind: 'aborted' });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('fails at once without taking a step when the signal is already aborted', async () => {
    const model = scriptedModel([{ text: 'unused' }]);
    const { error } = await failure(model, hello, { signal: AbortSignal.abort() });
    expect(error).toMatchObject({ kind: 'aborted' });
    expect(model.remaining).toBe(1);
    expect(model.requests).toHaveLength(0);
  });

  it('fails with timeout when timeoutMs passes during a slow stream', async () => {
    const model = scriptedModel([{ text: ['a', 'b', 'c'], tokenDelayMs: 1_000 }]);
    const { error, events, elapsedMs } = await failure(model, hello, { timeoutMs: 50 });
    expect(events).toEqual([{ type: 'text-delta', text: 'a' }]);
    expect(error).toMatchObject({ kind: 'timeout', retryable: true });
    expect((error as Error).message).toBe('scriptedModel: call #1 timed out after 50ms');
    expect(elapsedMs).toBeLessThan(900);
  });

  it('splits a string into words when streaming slowly, and ignores pacing without streaming', async () => {
    const slow = scriptedModel([
      { text: 'one two three', tokenDelayMs: 5 },
      { text: 'one two three', tokenDelayMs: 5_000 },
    ]);
    const streamed = await collect(slow, hello);
    expect(streamed.filter((event) => event.type === 'text-delta')).toHaveLength(3);
    const started = performance.now();
    const whole = await collect(slow, { ...hello, stream: false });
    expect(whole[0]).toEqual({ type: 'text-delta', text: 'one two three' });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('scriptedModel records requests', () => {
  it('keeps messages (a snapshot), tools, options and call options', async () => {
    const model = scriptedModel([{ text: 'ok' }]);
    const messages: ModelRequest['messages'][number][] = [{ role: 'user', content: 'q' }];
    const tools = [{ name: 'grep', description: 'search', inputSchema: { type: 'object' } }];
    await collect(
      model,
      { messages, tools, temperature: 0.2, toolChoice: 'required', maxOutputTokens: 99 },
      { timeoutMs: 5_000 },
    );
    messages.push({ role: 'assistant', content: 'later' });
    expect(model.requests[0]).toEqual({
      api: 'in-process',
      model: 'scripted-model',
      messages: [{ role: 'user', content: 'q' }],
      tools,
      options: { temperature: 0.2, toolChoice: 'required', maxOutputTokens: 99 },
      callOptions: { timeoutMs: 5_000, signal: false },
    });
  });
});
