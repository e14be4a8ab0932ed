import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_META, McpToolProvider, TOOL_CALL_ID_META, ToolQueues } from '../src/index.js';
import { FAULT_SERVER, noSignal } from './helpers.js';
import { startMetaHttpServer } from './meta-http-server.js';

// Issue 16: every tools/call carries the model's call id in `_meta`. Issue 37: and the session's
// idempotency key for the call, when it has one. The fixture servers (the SDK's, over stdio and
// Streamable HTTP) answer the _meta they got.
const providers: McpToolProvider[] = [];
afterEach(async () => {
  await Promise.all(providers.splice(0).map((provider) => provider.close()));
});

const KEY = 'a3'.repeat(32);

function stdioProvider(): McpToolProvider {
  const provider = new McpToolProvider(
    'faults',
    { type: 'stdio', command: process.execPath, args: [FAULT_SERVER] },
    { queues: new ToolQueues() },
  );
  providers.push(provider);
  return provider;
}

async function metaOf(
  provider: McpToolProvider,
  call: { name: string; callId: string; idempotencyKey?: string },
  onProgress?: () => void,
): Promise<Record<string, unknown>> {
  const result = await provider.execute(
    { arguments: {}, ...call },
    { signal: noSignal(), ...(onProgress ? { onProgress } : {}) },
  );
  if (!result.ok) throw new Error(`the meta call failed: ${result.error.message}`);
  return JSON.parse(result.text) as Record<string, unknown>;
}

it('sends the tool call id in _meta on tools/call, beside the progress token when progress is asked', async () => {
  const provider = stdioProvider();
  expect(TOOL_CALL_ID_META).toBe('agent/callId');
  expect(await metaOf(provider, { name: 'faults__meta', callId: 'call_abc-1' })).toEqual({
    'agent/callId': 'call_abc-1',
  });
  expect(await metaOf(provider, { name: 'faults__meta', callId: 'call_2' }, () => {})).toMatchObject({
    'agent/callId': 'call_2',
    progressToken: expect.anything(),
  });
});

it('sends the idempotency key in _meta over stdio when the call has one, and no key when it has none', async () => {
  const provider = stdioProvider();
  expect(IDEMPOTENCY_KEY_META).toBe('agent/idempotencyKey');
  expect(await metaOf(provider, { name: 'faults__meta', callId: 'c1', idempotencyKey: KEY })).toEqual({
    'agent/callId': 'c1',
    'agent/idempotencyKey': KEY,
  });
  // The same call made again (a resumed turn) carries the same key.
  expect(
    await metaOf(provider, { name: 'faults__meta', callId: 'c1', idempotencyKey: KEY }, () => {}),
  ).toMatchObject({ 'agent/idempotencyKey': KEY, progressToken: expect.anything() });
  expect(await metaOf(provider, { name: 'faults__meta', callId: 'c2' })).toEqual({ 'agent/callId': 'c2' });
});

describe('over Streamable HTTP', () => {
  let server: Awaited<ReturnType<typeof startMetaHttpServer>>;
  beforeAll(async () => {
    server = await startMetaHttpServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends the idempotency key in _meta when the call has one, and no key when it has none', async () => {
    const provider = new McpToolProvider(
      'web',
      { type: 'http', url: server.url },
      { queues: new ToolQueues() },
    );
    providers.push(provider);
    expect(await metaOf(provider, { name: 'web__meta', callId: 'h1', idempotencyKey: KEY })).toEqual({
      'agent/callId': 'h1',
      'agent/idempotencyKey': KEY,
    });
    const without = await metaOf(provider, { name: 'web__meta', callId: 'h2' });
    expect(without).toEqual({ 'agent/callId': 'h2' });
    expect(Object.keys(without)).not.toContain(IDEMPOTENCY_KEY_META);
  });
});
