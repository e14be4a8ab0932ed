// A small HTTP API of the tests' own on loopback (node:http), and its OpenAPI document.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface TestApi {
  url: string;
  host: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

const PETS = [
  { id: 1, name: 'Rex', tag: 'dog' },
  { id: 2, name: 'Tom', tag: 'cat' },
  { id: 3, name: 'Fido', tag: 'dog' },
];
export const TOKEN = 'tok-3f9a81c2e7';
export const CLIENT = { id: 'agent-client', secret: 'cl1ent-s3cret-value' };
export const API_KEY = 'k3y-5ecret-0042';

function send(res: ServerResponse, status: number, type: string, body: string): true {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
  return true;
}

/** Answers one request; false when it leaves it unanswered (`/slow`). */
function route(req: IncomingMessage, body: string, res: ServerResponse, redirectTo: string): boolean {
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname;
  const pet = /^\/pets\/(\d+)$/.exec(path);
  if (req.method === 'GET' && pet !== null) {
    const found = PETS.find((p) => p.id === Number(pet[1]));
    if (found === undefined)
      return send(res, 404, 'application/json', JSON.stringify({ error: `no pet ${pet[1]}` }));
    return send(
      res,
      200,
      'application/json',
      JSON.stringify({ ...found, tenant: req.headers['x-tenant'] ?? null }),
    );
  }
  if (req.method === 'GET' && path === '/pets') {
    const tags = url.searchParams.getAll('tag');
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const list = PETS.filter((p) => tags.length === 0 || tags.includes(p.tag)).slice(0, limit);
    return send(res, 200, 'application/json', JSON.stringify(list));
  }
  if (req.method === 'POST' && path === '/pets') {
    const input = JSON.parse(body) as Record<string, unknown>;
    return send(res, 201, 'application/json', JSON.stringify({ id: 99, received: input }));
  }
  if (req.method === 'GET' && /^\/notes\/[^/]+$/.test(path))
    return send(
      res,
      200,
      'text/plain; charset=utf-8',
      `note ${decodeURIComponent(path.slice(7))}: feed at 8`,
    );
  if (path === '/boom') return send(res, 500, 'text/plain', 'database on fire');
  if (path === '/slow') return false; // never answers: the tool timeout ends the call
  if (path === '/away') {
    res.writeHead(302, { location: `${redirectTo}/stolen` });
    res.end();
    return true;
  }
  if (path === '/again' || path === '/away-post') {
    // 307: the client sends the same request (method and body) on, here or to `redirectTo`.
    res.writeHead(307, { location: path === '/again' ? '/pets' : `${redirectTo}/pets` });
    res.end();
    return true;
  }
  if (path === '/hop') {
    res.writeHead(302, { location: '/pets/2' });
    res.end();
    return true;
  }
  if (path === '/events') return send(res, 200, 'application/x-ndjson', '{"n":1}\n{"n":2}\n\n{"n":3}\n');
  if (path === '/big') return send(res, 200, 'text/plain', 'x'.repeat(2 * 1024 * 1024));
  if (path === '/whoami') {
    const key = url.searchParams.get('api_key') ?? req.headers['x-api-key'];
    if (key !== API_KEY)
      return send(res, 401, 'application/json', JSON.stringify({ error: `bad key ${String(key)}` }));
    return send(res, 200, 'application/json', JSON.stringify({ user: 'ada' }));
  }
  if (path === '/oauth/token' && req.method === 'POST') {
    // RFC 6749 2.3.1: the id and secret are form-encoded before they are joined and base64-encoded.
    const basic = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString(
      'utf8',
    );
    const [id, secret] = basic.split(':').map((part) => decodeURIComponent(part));
    if (id !== CLIENT.id || secret !== CLIENT.secret || !body.includes('grant_type=client_credentials'))
      return send(res, 401, 'application/json', JSON.stringify({ error: 'invalid_client' }));
    return send(
      res,
      200,
      'application/json',
      JSON.stringify({ access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 }),
    );
  }
  if (path === '/openapi.yaml')
    return send(
      res,
      200,
      'application/yaml',
      `openapi: 3.0.3\ninfo: { title: Notes, version: '1' }\nservers: [{ url: /notes-api }]\npaths:\n  /{id}:\n    get: { operationId: read, parameters: [{ name: id, in: path, required: true, schema: { type: string } }] }\n`,
    );
  if (path === '/basic') {
    const ok = req.headers.authorization === `Basic ${Buffer.from('ada:pa55-word!').toString('base64')}`;
    return send(res, ok ? 200 : 401, 'text/plain', ok ? 'hello ada' : 'who are you');
  }
  if (req.method === 'POST' && /^\/pets\/\d+\/feed$/.test(path))
    return send(
      res,
      200,
      'application/json',
      JSON.stringify({ fed: JSON.parse(body), cookie: req.headers.cookie ?? null }),
    );
  if (path === '/secure') {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(res, 401, 'text/plain', 'no');
    return send(res, 200, 'application/json', JSON.stringify({ secret: 'the vault is open' }));
  }
  return send(res, 404, 'text/plain', `no route ${req.method} ${path}`);
}

/** Starts the API (and records every request it gets); `redirectTo` is where `/away` sends callers. */
export async function startTestApi(redirectTo = 'http://127.0.0.2:9'): Promise<TestApi> {
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      route(req, body, res, redirectTo);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The API's OpenAPI 3.1 document: `$ref`s, oneOf, arrays, path/query/header parameters, a body. */
export function petstoreDocument(baseUrl: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Pets', version: '1' },
    servers: [{ url: baseUrl }],
    components: {
      parameters: {
        Tenant: { name: 'x-tenant', in: 'header', schema: { type: 'string' }, description: 'Tenant id' },
      },
      schemas: {
        Cat: {
          type: 'object',
          properties: { kind: { const: 'cat' }, indoor: { type: 'boolean' } },
          required: ['kind'],
        },
        Dog: {
          type: 'object',
          properties: { kind: { const: 'dog' }, barks: { type: 'integer' } },
          required: ['kind'],
        },
        NewPet: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            details: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] },
          },
          required: ['name'],
        },
        Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' } } },
      },
      securitySchemes: {
        cc: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: { 'pets:read': 'read' } } },
        },
      },
    },
    paths: {
      '/pets/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        get: {
          operationId: 'getPet',
          summary: 'One pet by id',
          tags: ['pets'],
          parameters: [{ $ref: '#/components/parameters/Tenant' }],
        },
      },
      '/pets': {
        get: {
          operationId: 'listPets',
          summary: 'Pets with some tags',
          tags: ['pets'],
          parameters: [
            { name: 'tag', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1 } },
          ],
        },
        post: {
          operationId: 'createPet',
          summary: 'Add a pet',
          tags: ['pets', 'write'],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } },
          },
        },
      },
      '/notes/{id}': {
        get: {
          operationId: 'getNote',
          summary: 'A note as text',
          tags: ['notes'],
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'id', in: 'query', schema: { type: 'string' }, description: 'same name, other place' },
          ],
        },
      },
      '/tree': {
        put: {
          operationId: 'putTree',
          tags: ['misc'],
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } },
        },
      },
      '/pets/{id}/feed': {
        post: {
          operationId: 'feedPet',
          tags: ['pets'],
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
            { name: 'session', in: 'cookie', schema: { type: 'string' } },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }] },
              },
            },
          },
        },
      },
      '/boom': { get: { operationId: 'boom', tags: ['errors'] } },
      '/pets/{id}/missing': {
        get: {
          operationId: 'missing',
          tags: ['errors'],
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        },
      },
      '/slow': { get: { operationId: 'slow', tags: ['errors'] } },
      '/away': { get: { operationId: 'away', tags: ['errors'] } },
      '/secure': { get: { operationId: 'secure', tags: ['auth'] } },
    },
  };
}
