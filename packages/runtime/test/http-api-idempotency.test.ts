// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${parameters.x}` is config syntax here
// Issue 37 through the runtime: `idempotencyHeader` of a `restTools` / `openapiSpecs` entry names
// the header a call's idempotency key goes in (`false`: none), and a name that cannot be a header
// is a configuration error at the entry.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolProvider } from '@agent/protocol';
import { afterEach, expect, test } from 'vitest';
import { createAgentRunner } from '../src/index.js';
import { sessionConfigOf } from './helpers/prepare.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A loopback API that keeps each request's path and headers and answers 201. */
async function api(): Promise<{ url: string; seen: { path: string; headers: IncomingHttpHeaders }[] }> {
  const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"order":1}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const KEY = 'c0ffee'.repeat(10).concat('c0de');

async function callTool(tools: readonly unknown[], name: string): Promise<void> {
  for (const tool of tools) {
    const provider = tool as ToolProvider;
    if (typeof provider.listTools !== 'function') continue;
    if (!(await provider.listTools()).some((t) => t.name === name)) continue;
    const result = await provider.execute(
      { name, arguments: {}, callId: 'call_1', idempotencyKey: KEY },
      { signal: new AbortController().signal, timeoutMs: 10_000 },
    );
    expect(result.ok, result.ok ? '' : result.error.message).toBe(true);
    return;
  }
  throw new Error(`no provider has ${name}`);
}

test("the key goes under Idempotency-Key, the entry's idempotencyHeader, or not at all with false", async () => {
  const shop = await api();
  const post = (path: string) => ({
    description: 'Order',
    method: 'POST',
    url: `${shop.url}${path}`,
    approval: false,
  });
  const root = tempTree({
    'agent.json': localConfig({
      restTools: {
        plain: post('/plain'),
        named: { ...post('/named'), idempotencyHeader: 'X-Order-Key' },
        off: { ...post('/off'), idempotencyHeader: false },
      },
      openapiSpecs: { shop: { spec: './shop.json', idempotencyHeader: 'X-Shop-Key' } },
    }),
    'shop.json': {
      openapi: '3.1.0',
      info: { title: 'Shop', version: '1' },
      servers: [{ url: shop.url }],
      paths: { '/orders': { post: { operationId: 'placeOrder', summary: 'Order something' } } },
    },
    'a.ai': agentFile('models: [local/m]\ntools: [plain, named, off, shop]'),
  });
  const { config } = await sessionConfigOf('a.ai', isolated(root));
  const tools = config.tools ?? [];
  for (const name of ['rest__plain', 'rest__named', 'rest__off', 'shop__placeOrder'])
    await callTool(tools, name);
  const byPath = Object.fromEntries(shop.seen.map((r) => [r.path, r.headers]));
  expect(byPath['/plain']?.['idempotency-key']).toBe(KEY);
  expect(byPath['/named']?.['x-order-key']).toBe(KEY);
  expect(byPath['/named']?.['idempotency-key']).toBeUndefined();
  expect(byPath['/off']?.['idempotency-key']).toBeUndefined();
  expect(Object.values(byPath['/off'] ?? {})).not.toContain(KEY);
  expect(byPath['/orders']?.['x-shop-key']).toBe(KEY);
});

test('an idempotencyHeader that is no header name, or not a string or false, is an error at the entry', async () => {
  const hostile = tempTree({
    'agent.json': localConfig({
      restTools: {
        order: {
          description: 'Order',
          method: 'POST',
          url: 'http://127.0.0.1:9/orders',
          idempotencyHeader: 'Idempotency-Key\r\nX-Admin: yes',
        },
      },
    }),
    'a.ai': agentFile('models: [local/m]\ntools: [order]'),
  });
  await expect(createAgentRunner('a.ai', isolated(hostile))).rejects.toThrow(
    /agent\.json:\d+: restTools\.order: `idempotencyHeader` must be an HTTP header name \(letters, digits and .* got "Idempotency-Key\\r\\nX-Admin: yes"/,
  );
  const wrongType = tempTree({
    'agent.json': localConfig({
      restTools: {
        order: { description: 'Order', url: 'http://127.0.0.1:9/orders', idempotencyHeader: true },
      },
    }),
    'a.ai': agentFile('models: [local/m]\ntools: [order]'),
  });
  await expect(createAgentRunner('a.ai', isolated(wrongType))).rejects.toThrow(
    /idempotencyHeader.*an HTTP header name, or false to send no idempotency key/,
  );
});
