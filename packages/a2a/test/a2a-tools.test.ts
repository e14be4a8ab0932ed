import { AgentError } from '@agent/protocol';
import { type RemoteAgent, startRemoteAgent } from '@agent/testkit/a2a';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { A2aError, createA2aToolProvider } from '../src/index.js';

let remote: RemoteAgent;
afterEach(async () => remote?.close());

const SECRET = 'Bearer s3cret-token-value';
const run = (options: { signal?: AbortSignal; timeoutMs?: number; progress?: string[] } = {}) => ({
  signal: options.signal ?? new AbortController().signal,
  ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  onProgress: (p: { message?: string }) => options.progress?.push(p.message ?? ''),
});

describe('createA2aToolProvider against the official SDK server', () => {
  beforeEach(async () => {
    remote = await startRemoteAgent();
  });

  it('reads the card into one tool per skill, filtered by globs, with the headers sent', async () => {
    const provider = await createA2aToolProvider({
      name: 'desk',
      cardUrl: remote.cardUrl,
      headers: { Authorization: SECRET },
      skills: ['answer', 'w*', 'progress', 'ask', 'slow'],
    });
    const tools = await provider.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'desk__answer',
      'desk__weather',
      'desk__progress',
      'desk__ask',
      'desk__slow',
    ]);
    expect(tools[1]?.description).toContain('The weather skill');
    expect(tools[1]?.description).toContain('Weather desk');
    expect(provider.card).toMatchObject({ name: 'Weather desk', streaming: true, protocolVersion: '1.0' });
    const result = await provider.execute(
      { name: 'desk__answer', arguments: { prompt: 'hi' }, callId: 'c1' },
      run(),
    );
    expect(result).toEqual({ ok: true, text: 'hello from remote: hi' });
    expect(remote.authorizations.length).toBeGreaterThan(1);
    expect(remote.authorizations.every((a) => a === SECRET)).toBe(true);
    expect(remote.metadata.at(-1)).toMatchObject({ skillId: 'answer' });
    const filtered = await createA2aToolProvider({
      name: 'desk',
      cardUrl: remote.cardUrl,
      skills: ['weather'],
    });
    expect((await filtered.listTools()).map((t) => t.name)).toEqual(['desk__weather']);
  });

  it('a data artifact becomes structured content; streamed status messages become progress', async () => {
    const provider = await createA2aToolProvider({ name: 'desk', cardUrl: remote.cardUrl });
    const weather = await provider.execute(
      { name: 'desk__weather', arguments: { prompt: 'Paris?' }, callId: 'c1' },
      run(),
    );
    expect(weather).toMatchObject({ ok: true, structured: { city: 'Paris', temperature: 21 } });
    const progress: string[] = [];
    const chunked = await provider.execute(
      { name: 'desk__progress', arguments: { prompt: 'go', reason: 'checking the desk' }, callId: 'c2' },
      run({ progress }),
    );
    expect(chunked).toEqual({ ok: true, text: 'part one, \npart two' });
    expect(progress).toEqual(['checking the desk', 'looking it up', 'writing it down']);
  });

  it('without streaming (option off) the blocking call gives the same answer', async () => {
    const provider = await createA2aToolProvider({ name: 'desk', cardUrl: remote.cardUrl, streaming: false });
    const progress: string[] = [];
    const result = await provider.execute(
      { name: 'desk__progress', arguments: { prompt: 'go' }, callId: 'c' },
      run({ progress }),
    );
    expect(result).toEqual({ ok: true, text: 'part one, \npart two' });
    expect(progress).toEqual([]);
  });

  it('output_schema: sent in metadata and as a data part; a valid answer passes, an invalid one is an error result', async () => {
    const provider = await createA2aToolProvider({ name: 'desk', cardUrl: remote.cardUrl });
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, temperature: { type: 'number' } },
      required: ['city'],
    };
    const good = await provider.execute(
      { name: 'desk__weather', arguments: { prompt: 'Paris?', output_schema: schema }, callId: 'c1' },
      run(),
    );
    expect(good).toEqual({
      ok: true,
      text: JSON.stringify({ city: 'Paris', temperature: 21 }, null, 2),
      structured: { city: 'Paris', temperature: 21 },
    });
    expect(remote.metadata.at(-1)).toMatchObject({ outputSchema: schema });
    const bad = await provider.execute(
      { name: 'desk__weather', arguments: { prompt: 'broken', output_schema: schema }, callId: 'c2' },
      run(),
    );
    expect(bad).toMatchObject({ ok: true, isError: true });
    expect(bad.ok && bad.text).toContain('does not meet the output schema: /city must be string');
    const text = await provider.execute(
      { name: 'desk__answer', arguments: { prompt: 'hi', output_schema: schema }, callId: 'c3' },
      run(),
    );
    expect(text).toMatchObject({ ok: true, isError: true });
    expect(text.ok && text.text).toContain('answered without JSON');
    const unusable = await provider.execute(
      {
        name: 'desk__weather',
        arguments: { prompt: 'x', output_schema: { type: 'nonsense' } },
        callId: 'c4',
      },
      run(),
    );
    expect(unusable).toMatchObject({ ok: false, error: { kind: 'invalid_arguments' } });
    expect(!unusable.ok && unusable.error.message).toContain('output schema is');
  });

  it('input-required: the question and the task ids come back, and the next call with them finishes the task', async () => {
    const provider = await createA2aToolProvider({ name: 'desk', cardUrl: remote.cardUrl });
    const first = await provider.execute(
      { name: 'desk__ask', arguments: { prompt: 'weather please' }, callId: 'c1' },
      run(),
    );
    expect(first).toMatchObject({ ok: true, structured: { state: 'input-required' } });
    expect(first.ok && first.text).toContain('Which city?');
    const { taskId, contextId } = (first.ok ? first.structured : {}) as { taskId: string; contextId: string };
    expect(taskId).toMatch(/\S/);
    const second = await provider.execute(
      { name: 'desk__ask', arguments: { prompt: 'Oslo', taskId, contextId }, callId: 'c2' },
      run(),
    );
    expect(second).toEqual({ ok: true, text: 'the weather in Oslo is fine' });
  });

  it('a call over its time limit cancels the remote task and ends in a timeout error', async () => {
    const provider = await createA2aToolProvider({ name: 'desk', cardUrl: remote.cardUrl });
    const result = await provider.execute(
      { name: 'desk__slow', arguments: { prompt: 'x' }, callId: 'c' },
      run({ timeoutMs: 500 }),
    );
    expect(result).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(!result.ok && result.error.message).toContain('canceled');
    expect(remote.canceled).toHaveLength(1);
  });

  it('without streaming, an aborted call still cancels the remote task (sent non-blocking, then polled)', async () => {
    const provider = await createA2aToolProvider({ name: 'desk', cardUrl: remote.cardUrl, streaming: false });
    const controller = new AbortController();
    const stop = setTimeout(() => controller.abort(), 600);
    const result = await provider.execute(
      { name: 'desk__slow', arguments: { prompt: 'x' }, callId: 'c' },
      run({ signal: controller.signal }),
    );
    clearTimeout(stop);
    expect(result).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(!result.ok && result.error.message).toMatch(/remote task \S+ canceled/);
    expect(remote.canceled).toHaveLength(1);
  });

  it('bad arguments are refused before anything is sent', async () => {
    const provider = await createA2aToolProvider({ name: 'desk', cardUrl: remote.cardUrl });
    const before = remote.metadata.length;
    const result = await provider.execute(
      { name: 'desk__answer', arguments: { prompt: '' }, callId: 'c' },
      run(),
    );
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_arguments' } });
    expect(remote.metadata.length).toBe(before);
  });

  it('a card that cannot be read, or is malformed, is an A2aError naming the URL and not the headers', async () => {
    const missing = remote.cardUrl.replace('agent-card', 'nothing-here');
    const error = await createA2aToolProvider({
      name: 'x',
      cardUrl: missing,
      headers: { Authorization: SECRET },
    }).catch((e) => e);
    expect(error).toBeInstanceOf(A2aError);
    expect(AgentError.is(error, 'a2a')).toBe(true);
    expect(error.message).toContain(missing);
    expect(error.message).not.toContain('s3cret');
    const broken = remote.cardUrl.replace('.well-known', 'broken');
    const malformed = await createA2aToolProvider({ name: 'x', cardUrl: broken }).catch((e) => e);
    expect(malformed).toBeInstanceOf(A2aError);
    expect(malformed.message).toMatch(/at http:\/\/127\.0\.0\.1:\d+\/broken\/agent-card\.json/);
  });
});

describe('a card without skills', () => {
  it('gives one tool <name>__ask', async () => {
    remote = await startRemoteAgent({ skills: false });
    const provider = await createA2aToolProvider({ name: 'desk', cardUrl: remote.cardUrl });
    expect((await provider.listTools()).map((t) => t.name)).toEqual(['desk__ask']);
    const result = await provider.execute(
      { name: 'desk__ask', arguments: { prompt: 'hi' }, callId: 'c' },
      run(),
    );
    expect(result).toEqual({ ok: true, text: 'hello from remote: hi' });
  });
});

describe('connect timeout', () => {
  it('a card that does not come in time is an A2aError', async () => {
    const neverAnswers: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      );
    const error = await createA2aToolProvider({
      name: 'x',
      cardUrl: 'http://127.0.0.1:9/card.json',
      fetch: neverAnswers,
      connectTimeoutMs: 200,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(A2aError);
    expect(error.message).toContain('http://127.0.0.1:9/card.json');
  });
});
