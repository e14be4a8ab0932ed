import type { ModelCallOptions, ModelClient, ModelRequest, ModelStreamEvent } from '@agent/protocol';

/** Runs one call to the end and returns every event. */
export async function collect(
  client: ModelClient,
  request: ModelRequest,
  options?: ModelCallOptions,
): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of client.stream(request, options)) events.push(event);
  return events;
}

/** Runs one call and returns the error it failed with (fails the test when it does not fail). */
export async function failure(
  client: ModelClient,
  request: ModelRequest,
  options?: ModelCallOptions,
): Promise<{ error: unknown; events: ModelStreamEvent[]; elapsedMs: number }> {
  const events: ModelStreamEvent[] = [];
  const started = performance.now();
  try {
    for await (const event of client.stream(request, options)) events.push(event);
  } catch (error) {
    return { error, events, elapsedMs: performance.now() - started };
  }
  throw new Error(`expected the call to fail, it yielded ${events.length} events`);
}

export const hello: ModelRequest = { messages: [{ role: 'user', content: 'Hello there' }] };

/** Silences an SDK's own logger (it prints unparseable SSE data, and tests must not print). */
export const quietLogger = { error() {}, warn() {}, info() {}, debug() {} };
