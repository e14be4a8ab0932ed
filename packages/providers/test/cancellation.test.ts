// Cancellation and timeouts end a call promptly with the right kind and release the request.
import { getEventListeners } from 'node:events';
import type { ModelRequest } from '@agent/protocol';
import { type ModelServer, startModelServer } from '@agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelClientConfig } from '../src/index.js';
import { clientFor, collectError, WIRE_TYPES } from './helpers.js';

const request: ModelRequest = { messages: [{ role: 'user', content: 'count slowly' }] };
/** 20 deltas 200 ms apart: about 4 s of stream still to come after the first delta. */
const slowAnswer = () => ({ text: Array.from({ length: 20 }, (_, i) => `${i} `), tokenDelayMs: 200 });

/** A fetch that remembers the signal each SDK request ran under. */
function recordingFetch(): { fetch: typeof fetch; signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  const recording: typeof fetch = (input, init) => {
    if (init?.signal) signals.push(init.signal);
    return fetch(input, init);
  };
  return { fetch: recording, signals };
}

describe.each(WIRE_TYPES)('%s', (type) => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer({ strict: true });
  });
  afterAll(() => server.close());

  const client = (overrides: Partial<ModelClientConfig> = {}) => clientFor(server, type, overrides);

  it('an abort mid-stream ends the call at once with kind aborted and aborts the HTTP request', async () => {
    server.push(slowAnswer());
    const recorder = recordingFetch();
    const controller = new AbortController();
    let abortedAt = 0;
    const stream = client({ fetch: recorder.fetch }).stream(request, { signal: controller.signal });
    const { error, events } = await collectError(
      (async function* () {
        for await (const event of stream) {
          yield event;
          if (event.type === 'text-delta' && abortedAt === 0) {
            abortedAt = Date.now();
            controller.abort();
          }
        }
      })(),
    );
    const elapsed = Date.now() - abortedAt;
    expect(error.kind).toBe('aborted');
    expect(error.retryable).toBe(false);
    expect(events.filter((e) => e.type === 'text-delta').length).toBeLessThan(20);
    expect(elapsed).toBeLessThan(500); // the stream had ~3.8 s left
    expect(recorder.signals.length).toBe(1);
    expect(recorder.signals[0]?.aborted).toBe(true);
  });

  it('an abort while the server has not answered ends the call promptly', async () => {
    server.push({ text: 'late', fault: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const { error } = await collectError(client().stream(request, { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a signal that outlives many calls (a session) has one listener per call in flight and none after', async () => {
    // 250 calls per provider type (1,000 in all): a listener left per call would show as 250.
    const controller = new AbortController();
    const before = getEventListeners(controller.signal, 'abort').length;
    const during = new Set<number>();
    for (let call = 0; call < 250; call++) {
      server.push({ text: `answer ${call}` });
      let text = '';
      for await (const event of client().stream(request, { signal: controller.signal })) {
        if (event.type !== 'text-delta') continue;
        text += event.text;
        during.add(getEventListeners(controller.signal, 'abort').length);
      }
      expect(text).toBe(`answer ${call}`);
    }
    expect([...during]).toEqual([before + 1]);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(before);
  });

  it('an already aborted signal fails without sending a request', async () => {
    const before = server.requests.length;
    const { error } = await collectError(client().stream(request, { signal: AbortSignal.abort() }));
    expect(error.kind).toBe('aborted');
    expect(server.requests.length).toBe(before);
  });

  it('a consumer that stops reading releases the request', async () => {
    server.push(slowAnswer());
    const recorder = recordingFetch();
    for await (const event of client({ fetch: recorder.fetch }).stream(request)) {
      if (event.type === 'text-delta') break;
    }
    expect(recorder.signals[0]?.aborted).toBe(true);
  });

  it('the call timeout (options.timeoutMs, over the config) ends a slow stream with kind timeout', async () => {
    server.push(slowAnswer());
    const started = Date.now();
    const { error, events } = await collectError(
      client({ timeoutMs: 60_000 }).stream(request, { timeoutMs: 500 }),
    );
    const elapsed = Date.now() - started;
    expect(error.kind).toBe('timeout');
    expect(error.retryable).toBe(true);
    expect(events.some((e) => e.type === 'text-delta')).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(480);
    expect(elapsed).toBeLessThan(2000);
  });
});
