// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${parameters.x}` templates are what these tests are about
// Issue 35: what a model's arguments or an API's redirects must not make a call do: climb out of
// the path its URL template names, carry credentials to another origin, or go from https to http.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolResult } from '@agent/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { requires } from '../../../tooling/vitest/skip.js';
import { createHttpToolProvider, type HttpApiOptions, loadOpenApiTools } from '../src/index.js';
import { startTlsServer } from './tls-server.js';

interface Seen {
  url: string;
  headers: IncomingMessage['headers'];
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A loopback server that records every request and answers with `answer` (a redirect or 200). */
async function recordingServer(
  answer: (path: string) => { status: number; location?: string; body?: string },
) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const out = answer(req.url ?? '/');
    res.writeHead(out.status, {
      'content-type': 'text/plain',
      ...(out.location === undefined ? {} : { location: out.location }),
    });
    res.end(out.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${port}`, host: `127.0.0.1:${port}`, seen };
}

async function call(
  options: Omit<HttpApiOptions, 'id'>,
  args: Record<string, unknown> = {},
): Promise<ToolResult> {
  const provider = createHttpToolProvider({ id: 'api', ...options });
  return provider.execute(
    { name: options.tools[0]!.name, arguments: args, callId: 'c' },
    { signal: new AbortController().signal, timeoutMs: 10_000 },
  );
}

const TOKEN = 'bearer-t0ken-of-project-a';

describe('path parameters', () => {
  const paths = (path: string) =>
    path === '/api/profile'
      ? { status: 200, body: 'the profile of the account' }
      : { status: 200, body: `saw ${path}` };

  it('refuses `..` and `.` as a path segment: the call never reaches the API and says why', async () => {
    const api = await recordingServer(paths);
    const tools = [
      { name: 'rest__user', description: 'u', url: `${api.url}/api/users/\${parameters.id}/profile` },
    ];
    for (const id of ['..', '.', ['..'], '%2e%2e']) {
      const result = await call({ tools }, { id });
      if (id === '%2e%2e') {
        // Encoded: `%` becomes `%25`, so the server sees the literal text, never a dot segment.
        expect(result).toMatchObject({ ok: true, text: 'saw /api/users/%252e%252e/profile' });
        continue;
      }
      expect(result).toEqual({
        ok: false,
        error: {
          kind: 'invalid_arguments',
          message: `rest__user: the argument "id" makes the path segment ${JSON.stringify(String(id))}, which would move the request out of the path the tool names: "." and ".." are refused in a path parameter`,
        },
      });
    }
    expect(api.seen.map((s) => s.url)).toEqual(['/api/users/%252e%252e/profile']);
    // Dots inside a segment are an ordinary value.
    expect(await call({ tools }, { id: '..x' })).toMatchObject({
      ok: true,
      text: 'saw /api/users/..x/profile',
    });
  });

  it('applies to the path parameters of an OpenAPI operation too', async () => {
    const api = await recordingServer(paths);
    const loaded = await loadOpenApiTools({
      name: 'acct',
      spec: {
        openapi: '3.1.0',
        info: { title: 'Accounts', version: '1' },
        servers: [{ url: `${api.url}/api` }],
        paths: {
          '/users/{id}/profile': {
            get: {
              operationId: 'profile',
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            },
          },
        },
      },
    });
    const result = await call({ tools: loaded.tools }, { id: '..' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_arguments' } });
    expect(api.seen).toEqual([]);
  });
});

describe('redirects and credentials', () => {
  it('never sends credentials to another host or port; the same origin keeps them', async () => {
    const other = await recordingServer(() => ({ status: 200, body: 'other origin' }));
    const api = await recordingServer((path) =>
      path === '/away'
        ? { status: 302, location: `${other.url}/landing` }
        : path === '/hop'
          ? { status: 307, location: '/here' }
          : { status: 200, body: 'same origin' },
    );
    const base = {
      allowedHosts: [api.host, other.host],
      secrets: ['tenant-secret-42'],
      tools: [
        {
          name: 'rest__away',
          description: 'a',
          url: `${api.url}/away`,
          headers: { 'x-tenant': 'tenant-secret-42' },
        },
      ],
    };
    const bearer = await call({ ...base, auth: { type: 'bearer', token: TOKEN } });
    expect(bearer).toMatchObject({ ok: true, text: 'other origin' });
    const key = await call({
      ...base,
      auth: { type: 'apiKey', in: 'header', name: 'x-api-key', value: 'k3y-a' },
    });
    expect(key).toMatchObject({ ok: true, text: 'other origin' });
    expect(other.seen).toHaveLength(2);
    for (const seen of other.seen) {
      expect(seen.headers.authorization).toBeUndefined();
      expect(seen.headers['x-api-key']).toBeUndefined();
      expect(seen.headers['x-tenant']).toBeUndefined();
    }
    // A redirect on the API's own origin keeps the credentials.
    const same = await call({
      ...base,
      tools: [{ name: 'rest__hop', description: 'h', url: `${api.url}/hop` }],
      auth: { type: 'bearer', token: TOKEN },
    });
    expect(same).toMatchObject({ ok: true, text: 'same origin' });
    expect(api.seen.at(-1)).toMatchObject({ url: '/here', headers: { authorization: `Bearer ${TOKEN}` } });
  });

  it(
    'never follows https to http, even to an allowed host: the token is never sent in clear',
    requires('openssl'),
    async () => {
      const plain = await recordingServer(() => ({ status: 200, body: 'plain http' }));
      const secure = await startTlsServer((_req, res) => {
        res.writeHead(302, { location: `${plain.url}/stolen` }).end();
      });
      closers.push(secure.close);
      const result = await call({
        allowedHosts: [secure.host, plain.host],
        auth: { type: 'bearer', token: TOKEN },
        tools: [{ name: 'rest__secure', description: 's', url: `${secure.url}/data` }],
      });
      expect(result).toEqual({
        ok: false,
        error: {
          kind: 'execution',
          message: `rest__secure: redirect from https to http://${plain.host} refused: a redirect may not leave https`,
        },
      });
      expect(plain.seen).toEqual([]);
      // The OpenAPI document's fetch follows the same rule.
      await expect(loadOpenApiTools({ name: 'doc', spec: `${secure.url}/openapi.json` })).rejects.toThrow(
        `redirect from https to http://${plain.host} refused: a redirect may not leave https`,
      );
      expect(plain.seen).toEqual([]);
    },
  );

  it('the OAuth token request follows no redirect: the client secret stays with the token endpoint', async () => {
    const other = await recordingServer(() => ({ status: 200, body: '{}' }));
    const tokens = await recordingServer(() => ({ status: 307, location: `${other.url}/token` }));
    const result = await call({
      auth: { type: 'oauth2', tokenUrl: `${tokens.url}/token`, clientId: 'c', clientSecret: 'client-s3cret' },
      tools: [{ name: 'rest__x', description: 'x', url: `${tokens.url}/x` }],
    });
    expect(result).toMatchObject({ ok: false, error: { kind: 'execution' } });
    expect(JSON.stringify(result)).not.toContain('client-s3cret');
    expect(other.seen).toEqual([]);
  });
});
