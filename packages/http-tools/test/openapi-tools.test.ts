// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${parameters.x}` templates are what these tests are about
// The OpenAPI document of a loopback API of the tests' own, called through the tools it becomes.
import type { ToolResult } from '@agent/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpToolProvider, type HttpToolProvider, loadOpenApiTools } from '../src/index.js';
import { CLIENT, petstoreDocument, startTestApi, type TestApi } from './api-server.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests walk schemas of any shape
type Schema = Record<string, any>;
let api: TestApi;
let elsewhere: TestApi;
let provider: HttpToolProvider;

const call = (name: string, args: Record<string, unknown>, timeoutMs = 10_000): Promise<ToolResult> =>
  provider.execute(
    { name, arguments: args, callId: 'c1' },
    { signal: new AbortController().signal, timeoutMs },
  );

beforeAll(async () => {
  elsewhere = await startTestApi();
  api = await startTestApi(elsewhere.url);
  const loaded = await loadOpenApiTools({
    name: 'pets',
    spec: petstoreDocument(api.url),
    auth: { type: 'oauth2', clientId: CLIENT.id, clientSecret: CLIENT.secret },
  });
  provider = createHttpToolProvider({
    id: 'pets',
    tools: loaded.tools,
    ...(loaded.auth ? { auth: loaded.auth } : {}),
  });
});

afterAll(async () => {
  await api.close();
  await elsewhere.close();
});

describe('the tools of an OpenAPI document', () => {
  it('names each operation <spec>__<operationId>, with its summary as the description', async () => {
    const tools = await provider.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'away',
        'boom',
        'createPet',
        'feedPet',
        'getNote',
        'getPet',
        'listPets',
        'missing',
        'putTree',
        'secure',
        'slow',
      ]
        .map((n) => `pets__${n}`)
        .sort(),
    );
    expect(tools.find((t) => t.name === 'pets__getPet')?.description).toBe('One pet by id');
  });

  it('merges path, query and header parameters and the body into one schema, $refs resolved', async () => {
    const tools = await provider.listTools();
    const schema = (name: string) => tools.find((t) => t.name === name)?.inputSchema as Schema;
    expect(Object.keys(schema('pets__getPet').properties)).toEqual(['id', 'x-tenant']);
    expect(schema('pets__getPet').required).toEqual(['id']);
    // The same name in the path and the query: the query's becomes query_id.
    expect(Object.keys(schema('pets__getNote').properties)).toEqual(['id', 'query_id']);
    const create = schema('pets__createPet');
    expect(create.required).toEqual(['name']);
    expect(create.properties.details.oneOf[1].properties.kind).toEqual({ const: 'dog' });
    expect(JSON.stringify(create)).not.toContain('$ref');
    // A recursive schema is cut where it recurses, never a cycle.
    expect(JSON.stringify(schema('pets__putTree'))).toContain('recursive');
  });

  it('sends path, header and array query parameters where the document says', async () => {
    const one = await call('pets__getPet', { id: 2, 'x-tenant': 'acme' });
    expect(one).toMatchObject({ ok: true, structured: { name: 'Tom', tenant: 'acme' } });
    const list = await call('pets__listPets', { tag: ['dog'], limit: 1 });
    expect(list).toMatchObject({ ok: true, structured: [{ name: 'Rex' }] });
    expect(api.seen.at(-1)?.url).toBe('/pets?tag=dog&limit=1');
  });

  it('sends the JSON body with a oneOf member', async () => {
    const result = await call('pets__createPet', { name: 'Kit', details: { kind: 'cat', indoor: true } });
    expect(result).toMatchObject({
      ok: true,
      structured: { id: 99, received: { name: 'Kit', details: { kind: 'cat' } } },
    });
    expect(api.seen.at(-1)?.headers['content-type']).toBe('application/json');
  });

  it('sends a oneOf body that is not an object as the `body` argument, and cookie parameters', async () => {
    const tools = await provider.listTools();
    const feed = tools.find((t) => t.name === 'pets__feedPet')?.inputSchema as Schema;
    expect(feed.required).toEqual(['id', 'body']);
    expect(feed.properties.body.oneOf).toHaveLength(2);
    const result = await call('pets__feedPet', { id: 1, session: 'abc 1', body: ['kibble', 'fish'] });
    expect(result).toMatchObject({
      ok: true,
      structured: { fed: ['kibble', 'fish'], cookie: 'session=abc%201' },
    });
  });

  it('URL-encodes path arguments and keeps a text answer as text', async () => {
    const result = await call('pets__getNote', { id: 'a b/c' });
    expect(result).toEqual({ ok: true, text: 'note a b/c: feed at 8' });
    expect(api.seen.at(-1)?.url).toBe('/notes/a%20b%2Fc');
  });

  it('refuses arguments the schema does not allow, without a request', async () => {
    const before = api.seen.length;
    const result = await call('pets__listPets', { limit: 0 });
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_arguments' } });
    expect(api.seen.length).toBe(before);
  });

  it('turns 4xx and 5xx answers into errors that show the status and the body', async () => {
    expect(await call('pets__getPet', { id: 7 })).toMatchObject({
      ok: false,
      error: {
        kind: 'execution',
        message: expect.stringMatching(/HTTP 404 Not Found from GET .*\/pets\/7: \{"error":"no pet 7"\}/),
      },
    });
    expect(await call('pets__boom', {})).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('HTTP 500 Internal Server Error from GET') },
    });
    expect((await call('pets__boom', {})) as { error: { message: string } }).toMatchObject({
      error: { message: expect.stringContaining('database on fire') },
    });
  });

  it('cuts a slow endpoint at the tool timeout', async () => {
    expect(await call('pets__slow', {}, 300)).toEqual({
      ok: false,
      error: { kind: 'timeout', message: 'pets__slow: no answer within 300 ms' },
    });
  });

  it('refuses a redirect to another host, which never sees a request', async () => {
    const result = await call('pets__away', {});
    expect(result).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining(`redirect to http://${elsewhere.host} refused`) },
    });
    expect(elsewhere.seen).toEqual([]);
  });

  it('gets an OAuth 2 client credentials token from the tokenUrl the document declares', async () => {
    expect(await call('pets__secure', {})).toMatchObject({
      ok: true,
      structured: { secret: 'the vault is open' },
    });
    const tokenCalls = api.seen.filter((r) => r.url === '/oauth/token');
    expect(tokenCalls).toHaveLength(1);
    expect(tokenCalls[0]?.body).toContain('scope=pets%3Aread');
  });

  it('asks for approval of the operations that are not GET', () => {
    expect(provider.approvalTools().sort()).toEqual(['pets__createPet', 'pets__feedPet', 'pets__putTree']);
  });
});

describe('documents from a URL', () => {
  it('reads YAML from the URL and resolves a relative server URL against it', async () => {
    const loaded = await loadOpenApiTools({ name: 'notes', spec: `${api.url}/openapi.yaml` });
    expect(loaded.baseUrl).toBe(`${api.url}/notes-api`);
    expect(loaded.tools.map((t) => [t.name, t.url])).toEqual([
      ['notes__read', `${api.url}/notes-api/\${parameters.id}`],
    ]);
  });

  it('says when the URL answers with an error', async () => {
    await expect(loadOpenApiTools({ name: 'x', spec: `${api.url}/no-such.yaml` })).rejects.toThrow(
      `the OpenAPI document at ${api.url}/no-such.yaml answered HTTP 404`,
    );
  });
});

describe('an OpenAPI filter', () => {
  it('keeps the operations whose path and operationId match its globs', async () => {
    const all = await loadOpenApiTools({ name: 'pets', spec: petstoreDocument(api.url) });
    const paths = await loadOpenApiTools({
      name: 'pets',
      spec: petstoreDocument(api.url),
      filter: { paths: ['/pets/**'] },
    });
    expect(paths.tools.length).toBeGreaterThan(0);
    expect(paths.tools.length).toBeLessThan(all.tools.length);
    const firstId = all.tools[0]!.name.replace(/^pets__/, '');
    const byId = await loadOpenApiTools({
      name: 'pets',
      spec: petstoreDocument(api.url),
      filter: { operations: [`${firstId.slice(0, 3)}*`], methods: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] },
    });
    expect(byId.tools.map((t) => t.name)).toContain(all.tools[0]!.name);
    expect(
      (
        await loadOpenApiTools({
          name: 'pets',
          spec: petstoreDocument(api.url),
          filter: { paths: ['/nowhere/*'] },
        })
      ).tools,
    ).toEqual([]);
  });
});
