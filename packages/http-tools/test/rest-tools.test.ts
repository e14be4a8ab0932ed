// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${parameters.x}` templates are what these tests are about
// REST tool definitions (templates, response kinds, caps, auth) against the loopback API.
import { ConfigError, type ToolResult } from '@agent/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpToolProvider, type HttpApiOptions, type RestToolDefinition } from '../src/index.js';
import { API_KEY, startTestApi, type TestApi } from './api-server.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

async function run(
  tool: Omit<RestToolDefinition, 'name' | 'description'>,
  args: Record<string, unknown>,
  extra: Partial<HttpApiOptions> = {},
): Promise<ToolResult> {
  const provider = createHttpToolProvider({
    id: 'api',
    tools: [{ name: 'rest__t', description: 't', ...tool }],
    ...extra,
  });
  return provider.execute(
    { name: 'rest__t', arguments: args, callId: 'c' },
    { signal: new AbortController().signal, timeoutMs: 10_000 },
  );
}

describe('REST tools', () => {
  it('fills URL templates URL-encoded, header templates as is, and a body template', async () => {
    const result = await run(
      {
        method: 'POST',
        url: `${api.url}/pets?via=\${parameters.via}`,
        headers: { 'x-tenant': 'team-${parameters.team}' },
        bodyTemplate: { name: '${parameters.name}', tags: '${parameters.tags}' },
      },
      { via: 'a&b', team: 'blue', name: 'Kit', tags: ['x', 'y'] },
    );
    expect(result).toMatchObject({ ok: true, structured: { received: { name: 'Kit', tags: ['x', 'y'] } } });
    const seen = api.seen.at(-1);
    expect(seen?.url).toBe('/pets?via=a%26b');
    expect(seen?.headers['x-tenant']).toBe('team-blue');
  });

  it('says which argument a template misses', async () => {
    expect(await run({ url: `${api.url}/pets/\${parameters.id}` }, {})).toMatchObject({
      ok: false,
      error: { message: 'rest__t: missing argument "id" (the URL uses ${parameters.id})' },
    });
  });

  it('reads JSON lines as a list', async () => {
    expect(await run({ url: `${api.url}/events` }, {})).toEqual({
      ok: true,
      text: '{"n":1}\n{"n":2}\n{"n":3}',
      structured: [{ n: 1 }, { n: 2 }, { n: 3 }],
    });
  });

  it('reads at most maxResponseBytes of an answer and says it cut it', async () => {
    const result = await run({ url: `${api.url}/big` }, {}, { maxResponseBytes: 1000 });
    expect(result.ok && result.text).toBe(
      `${'x'.repeat(1000)}\n[response cut at 1000 bytes: the API sent more than this tool reads]`,
    );
  });

  it('follows a redirect on the same host', async () => {
    expect(await run({ url: `${api.url}/hop` }, {})).toMatchObject({ ok: true, structured: { name: 'Tom' } });
  });

  it('puts an API key in the query and keeps it out of error messages', async () => {
    const good = await run(
      { url: `${api.url}/whoami` },
      {},
      { auth: { type: 'apiKey', in: 'query', name: 'api_key', value: API_KEY } },
    );
    expect(good).toMatchObject({ ok: true, structured: { user: 'ada' } });
    const bad = await run(
      { url: `${api.url}/whoami` },
      {},
      { auth: { type: 'apiKey', in: 'header', name: 'x-api-key', value: 'wrong-key-1234' } },
    );
    expect(bad).toMatchObject({ ok: false, error: { message: expect.stringContaining('HTTP 401') } });
    expect(JSON.stringify(bad)).not.toContain('wrong-key-1234');
    expect(JSON.stringify(bad)).toContain('[redacted]');
  });

  it('sends basic credentials and keeps the password out of errors', async () => {
    const auth = (password: string) => ({ auth: { type: 'basic' as const, username: 'ada', password } });
    expect(await run({ url: `${api.url}/basic` }, {}, auth('pa55-word!'))).toEqual({
      ok: true,
      text: 'hello ada',
    });
    const refused = await run({ url: `${api.url}/basic` }, {}, auth('not-the-word'));
    expect(refused).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('HTTP 401 Unauthorized from GET') },
    });
  });

  it('rejects a definition whose host is a template, or a bad method, naming the field', () => {
    expect(() =>
      createHttpToolProvider({
        id: 'api',
        tools: [
          { name: 'rest__t', description: 't', url: 'http://${parameters.host}/x', method: 'FETCH' as 'GET' },
        ],
      }),
    ).toThrow(ConfigError);
    try {
      createHttpToolProvider({
        id: 'api',
        tools: [
          { name: 'rest__t', description: 't', url: 'http://${parameters.host}/x', method: 'FETCH' as 'GET' },
        ],
      });
    } catch (error) {
      expect((error as ConfigError).problems.map((p) => p.field)).toEqual([
        'tools[0].method',
        'tools[0].url',
      ]);
    }
  });

  it('never contacts a host outside allowedHosts', async () => {
    const before = api.seen.length;
    const result = await run({ url: `${api.url}/pets` }, {}, { allowedHosts: ['api.example.com'] });
    expect(result).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('is not among the hosts this API may reach') },
    });
    expect(api.seen.length).toBe(before);
  });
});
