import { streamedFinalReport } from '@agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiHeadend, type ServedHeadend, serve } from '../src/index.js';
import {
  finalReport,
  lastUserText,
  type RecordedRun,
  recording,
  startAgents,
  type TestAgents,
} from './helpers/agents.js';

let agents: TestAgents;
let server: ServedHeadend;
const results: RecordedRun[] = [];

beforeAll(async () => {
  agents = await startAgents((request) => {
    const prompt = lastUserText(request.messages);
    if (prompt === 'slow') {
      return streamedFinalReport(Array<string>(50).fill('tick '), {
        unclosed: true,
        answer: { tokenDelayMs: 100 },
      });
    }
    return { text: finalReport(`Echo: ${prompt}`) };
  });
  server = await serve(
    createOpenAiHeadend({
      catalog: recording(agents.catalog, results),
      tokens: ['secret'],
      bodyLimitBytes: 2048,
      concurrency: 1,
      queueSize: 0,
    }),
  );
});

afterAll(async () => {
  await server.close();
  await agents.close();
});

const post = (body: string, token = 'secret', signal?: AbortSignal) =>
  fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
    signal,
  });

describe('HTTP faults', () => {
  it('answers a missing or wrong token with 401', async () => {
    const body = JSON.stringify({ model: 'echo', messages: [{ role: 'user', content: 'hi' }] });
    const missing = await post(body, '');
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(/missing token/);
    const wrong = await post(body, 'nope');
    expect(wrong.status).toBe(401);
  });

  it('answers an oversized body with 413 and a message', async () => {
    const body = JSON.stringify({ model: 'echo', messages: [{ role: 'user', content: 'x'.repeat(5000) }] });
    const response = await post(body);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/2048 bytes/);
  });

  it('answers an oversized chunked body (no content-length) with 413 too', async () => {
    const body = JSON.stringify({ model: 'echo', messages: [{ role: 'user', content: 'x'.repeat(5000) }] });
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer secret' },
      body: new Blob([body]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/2048 bytes/);
  });

  it('answers malformed JSON with 400 and a message', async () => {
    const response = await post('{"model": "echo", ');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /malformed JSON/,
    );
  });

  it('aborts the session of a client that disconnects mid-stream, and frees its slot', async () => {
    const controller = new AbortController();
    const body = JSON.stringify({
      model: 'echo',
      stream: true,
      messages: [{ role: 'user', content: 'slow' }],
    });
    const response = await post(body, 'secret', controller.signal);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    // While it runs, the only slot is taken and the queue is empty: 429 with Retry-After.
    const busy = await post(JSON.stringify({ model: 'echo', messages: [{ role: 'user', content: 'b' }] }));
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBe('1');
    controller.abort();
    const run = results.at(-1)!;
    const result = await run.result;
    expect(run.signal?.aborted).toBe(true);
    expect(result.success).toBe(false);
    // The slot is free again.
    const after = await post(
      JSON.stringify({ model: 'echo', messages: [{ role: 'user', content: 'again' }] }),
    );
    expect(after.status).toBe(200);
  });
});
