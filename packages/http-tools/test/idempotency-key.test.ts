// Issue 37: a call's idempotency key goes to the API as a header (`Idempotency-Key` unless the API
// or the tool names another, none with `false`), checked against the loopback API's records.
import { ConfigError, type ToolCallRequest } from '@agent/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpToolProvider, type HttpApiOptions, type RestToolDefinition } from '../src/index.js';
import { API_KEY, type SeenRequest, startTestApi, type TestApi } from './api-server.js';

let api: TestApi;
let other: TestApi;
beforeAll(async () => {
  other = await startTestApi();
  api = await startTestApi(other.url);
});
afterAll(async () => {
  await api.close();
  await other.close();
});

const KEY = '5e'.repeat(32);

function provider(tool: Partial<RestToolDefinition>, extra: Partial<HttpApiOptions> = {}) {
  return createHttpToolProvider({
    id: 'api',
    tools: [
      {
        name: 'rest__t',
        description: 't',
        method: 'POST',
        url: `${api.url}/pets`,
        bodyTemplate: { name: 'Rex' },
        ...tool,
      },
    ],
    ...extra,
  });
}

/** Runs one call and returns the requests the APIs saw for it. */
async function sent(
  target: ReturnType<typeof provider>,
  call: Partial<ToolCallRequest> = { idempotencyKey: KEY },
): Promise<SeenRequest[]> {
  const before = { api: api.seen.length, other: other.seen.length };
  const result = await target.execute(
    { name: 'rest__t', arguments: {}, callId: 'call_1', ...call },
    { signal: new AbortController().signal, timeoutMs: 10_000 },
  );
  expect(result.ok, result.ok ? '' : result.error.message).toBe(true);
  return [...api.seen.slice(before.api), ...other.seen.slice(before.other)];
}

describe('the idempotency key header', () => {
  it('is sent as Idempotency-Key by default, the same key when the same call is made again', async () => {
    const tools = provider({});
    const first = await sent(tools);
    const again = await sent(tools);
    expect(first.map((r) => r.headers['idempotency-key'])).toEqual([KEY]);
    expect(again.map((r) => r.headers['idempotency-key'])).toEqual([KEY]);
  });

  it('goes under the name the API or the tool configures (the tool beats the API)', async () => {
    const byApi = await sent(provider({}, { idempotencyHeader: 'X-Request-Key' }));
    expect(byApi[0]?.headers['x-request-key']).toBe(KEY);
    expect(byApi[0]?.headers['idempotency-key']).toBeUndefined();
    const byTool = await sent(
      provider({ idempotencyHeader: 'X-Op-Id' }, { idempotencyHeader: 'X-Request-Key' }),
    );
    expect(byTool[0]?.headers['x-op-id']).toBe(KEY);
    expect(byTool[0]?.headers['x-request-key']).toBeUndefined();
  });

  it('is not sent when turned off, or when the call has none', async () => {
    const off = await sent(provider({}, { idempotencyHeader: false }));
    expect(off).toHaveLength(1);
    expect(off[0]?.headers['idempotency-key']).toBeUndefined();
    const toolOff = await sent(provider({ idempotencyHeader: false }, { idempotencyHeader: 'X-Key' }));
    expect(toolOff[0]?.headers['x-key']).toBeUndefined();
    const none = await sent(provider({}), {});
    expect(none).toHaveLength(1);
    expect(none[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it("replaces a value the tool's headers or the model's arguments put under its name", async () => {
    const seen = await sent(provider({ headers: { 'Idempotency-Key': 'made-up-by-the-model' } }));
    expect(seen[0]?.headers['idempotency-key']).toBe(KEY);
  });

  it('follows a 307 that sends the call on, on the same origin and to another allowed one', async () => {
    const same = await sent(provider({ url: `${api.url}/again` }));
    expect(same.map((r) => [r.method, r.url, r.headers['idempotency-key']])).toEqual([
      ['POST', '/again', KEY],
      ['POST', '/pets', KEY],
    ]);
    const away = await sent(
      provider(
        { url: `${api.url}/away-post` },
        { allowedHosts: [api.host, other.host], auth: { type: 'bearer', token: 'tok-never-leaves' } },
      ),
    );
    expect(away.map((r) => [r.method, r.url, r.headers['idempotency-key']])).toEqual([
      ['POST', '/away-post', KEY],
      ['POST', '/pets', KEY],
    ]);
    // The key goes on; the credentials stay with the API's own origin.
    expect(away[1]?.headers.authorization).toBeUndefined();
  });

  it('refuses a header name that is not an HTTP token, or one the request sets itself', () => {
    const refused = (options: Partial<HttpApiOptions>, tool: Partial<RestToolDefinition> = {}) => {
      try {
        provider(tool, options);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as ConfigError).problems.map((p) => [p.field, p.allowed]);
      }
      throw new Error('the options were accepted');
    };
    for (const name of ['Idempotency-Key\r\nX-Evil: 1', 'Bad Header', '', 'ключ', 'x'.repeat(129)])
      expect(refused({ idempotencyHeader: name })).toEqual([
        ['idempotencyHeader', expect.stringContaining('an HTTP header name (letters, digits and')],
      ]);
    expect(refused({ idempotencyHeader: 'Authorization' })[0]?.[1]).toContain('other than authorization');
    expect(refused({}, { idempotencyHeader: 'Content-Type' })[0]?.[0]).toBe('tools[0].idempotencyHeader');
    expect(
      refused({
        idempotencyHeader: 'x-api-key',
        auth: { type: 'apiKey', in: 'header', name: 'X-Api-Key', value: API_KEY },
      })[0]?.[1],
    ).toContain("the API key's header");
    expect(refused({ idempotencyHeader: true as unknown as string })[0]?.[1]).toContain('or false');
  });

  it('fails the call, sending nothing, when the key cannot be a header value', async () => {
    const before = api.seen.length;
    const result = await provider({}).execute(
      { name: 'rest__t', arguments: {}, callId: 'c', idempotencyKey: 'a\r\nX-Evil: 1' },
      { signal: new AbortController().signal, timeoutMs: 10_000 },
    );
    expect(result).toMatchObject({
      ok: false,
      error: {
        kind: 'execution',
        message: expect.stringContaining('idempotency key of the call cannot be sent'),
      },
    });
    expect(api.seen.length).toBe(before);
  });
});
