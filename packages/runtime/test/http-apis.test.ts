// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is config syntax here
// Issue 23 through the runtime: `restTools` and `openapiSpecs` as an agent's tools, with the rules
// every tool has (approval, toolsDenied, the tool cache) and clear errors for entries that cannot work.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { finalReport, type ModelServer, type ScriptStep, startModelServer } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { createAgentRunner } from '../src/index.js';
import { sessionConfigOf } from './helpers/prepare.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A loopback API that counts its requests: GET /time answers JSON, POST /orders 201. */
async function api(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.url === '/time') res.writeHead(200, { 'content-type': 'application/json' }).end('{"now":"noon"}');
    else res.writeHead(201, { 'content-type': 'application/json' }).end('{"order":1}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function models(steps: ScriptStep[]): Promise<ModelServer> {
  const server = await startModelServer({ steps });
  closers.push(() => server.close());
  return server;
}

const spec = (url: string) => ({
  openapi: '3.1.0',
  info: { title: 'Shop', version: '1' },
  servers: [{ url }],
  paths: {
    '/time': { get: { operationId: 'getTime', summary: 'The time' } },
    '/orders': { post: { operationId: 'placeOrder', summary: 'Order something' } },
  },
});

test('calls other than GET need approval by default; `approval: false` lifts it', async () => {
  const root = tempTree({
    'agent.json': localConfig({
      restTools: {
        order: { description: 'Order', method: 'POST', url: 'http://127.0.0.1:9/orders' },
        time: { description: 'Time', url: 'http://127.0.0.1:9/time' },
        trusted: {
          description: 'Order, trusted',
          method: 'POST',
          url: 'http://127.0.0.1:9/orders',
          approval: false,
        },
      },
      openapiSpecs: { shop: { spec: './shop.json' } },
    }),
    'shop.json': spec('http://127.0.0.1:9'),
    'a.ai': agentFile('models: [local/m]\ntools: [order, time, trusted, shop]'),
  });
  const { config } = await sessionConfigOf('a.ai', isolated(root));
  expect(config.approval).toEqual({ tools: ['rest__order', 'shop__placeOrder'] });
});

test('a denied POST never reaches the API; toolsDenied hides a tool; a cached GET is asked once', async () => {
  const shop = await api();
  const step = (name: string) => ({ toolCalls: [{ id: `c_${name}`, name, arguments: {} }] });
  const server = await models([
    step('shop__placeOrder'),
    step('rest__time'),
    step('rest__time'),
    finalReport('done'),
  ]);
  const root = tempTree({
    'agent.json': localConfig(
      {
        restTools: { time: { description: 'Time', url: `${shop.url}/time`, cache: '1h' } },
        openapiSpecs: { shop: { spec: './shop.json' } },
        cache: { backend: 'sqlite', path: './cache.sqlite' },
      },
      `${server.url}/v1`,
    ),
    'shop.json': spec(shop.url),
    'a.ai': agentFile('models: [local/m]\ntools: [time, shop]\ntoolsDenied: [shop__getTime]\nmaxTurns: 6'),
  });
  const runner = await createAgentRunner('a.ai', isolated(root));
  try {
    const result = await runner.run('go', {
      approver: () => ({ approved: false, reason: 'no orders today' }),
    });
    expect(result.success, result.error).toBe(true);
    expect(
      server.requests[0]!.tools.map((t) => t.name)
        .filter((n) => !n.startsWith('agent__'))
        .sort(),
    ).toEqual(['rest__time', 'shop__placeOrder']);
    const toolTexts = server.requests[3]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(toolTexts).toEqual([
      '(tool failed: a person denied this call: no orders today)',
      '{"now":"noon"}',
      '{"now":"noon"}',
    ]);
    expect(shop.seen).toEqual(['GET /time']);
  } finally {
    await runner.close();
  }
});

test('a spec that cannot be read, or a variable not set, is an error at its line that keeps secrets out', async () => {
  const root = tempTree({
    'agent.json': localConfig({ openapiSpecs: { shop: { spec: './missing.yaml' } } }),
    'a.ai': agentFile('models: [local/m]\ntools: [shop]'),
  });
  await expect(createAgentRunner('a.ai', isolated(root))).rejects.toThrow(
    /agent\.json:\d+: openapiSpecs\.shop: the OpenAPI document .*missing\.yaml does not exist/,
  );
  const withVariable = tempTree({
    'agent.json': localConfig({
      restTools: {
        time: {
          description: 'Time',
          url: 'http://127.0.0.1:9/time',
          auth: { type: 'bearer', token: '${TIME_TOKEN}' },
        },
      },
    }),
    'a.ai': agentFile('models: [local/m]\ntools: [time]'),
  });
  await expect(createAgentRunner('a.ai', isolated(withVariable))).rejects.toThrow(
    /restTools\.time\.auth\.token` uses \$\{TIME_TOKEN\}, which is not set/,
  );
});

test('agent validate finds a restTools URL whose host is an argument, at the entry', async () => {
  const { validateAgentFile } = await import('../src/index.js');
  const root = tempTree({
    'agent.json': localConfig({
      restTools: { fetch: { description: 'Fetch', url: 'http://${parameters.host}/x' } },
    }),
    'a.ai': agentFile('models: [local/m]\ntools: [fetch]'),
  });
  const result = await validateAgentFile('a.ai', isolated(root));
  expect(result.ok).toBe(false);
  expect(result.problems.map((p) => p.message)).toEqual([
    'restTools.fetch: `url` must be an http(s) URL with a literal host, got "http://${parameters.host}/x"',
  ]);
});
