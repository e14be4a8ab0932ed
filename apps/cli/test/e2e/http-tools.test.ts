// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` and `${parameters.x}` are config syntax here
// Issue 23 through the CLI: an agent whose tools come from an OpenAPI document (YAML, beside
// agent.json) and a `restTools` entry, served by a loopback API of the test's own. The scripted
// model calls two operations and a REST tool; its report is built from what they answered.
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConversationMessage } from '@agent/protocol';
import { afterAll, expect, onTestFinished, test } from 'vitest';
import {
  agentFile,
  isolatedEnv,
  removeWorkspaces,
  runCli,
  type Step,
  scriptedServer,
  workspace,
} from './helpers.js';

afterAll(removeWorkspaces);

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

/** A tiny inventory API on loopback: stock by SKU (JSON), a warehouse note (text), the weather. */
async function inventoryApi(): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const url = new URL(req.url ?? '/', 'http://x');
    const stock = /^\/stock\/([^/]+)$/.exec(url.pathname);
    if (req.headers.authorization !== 'Bearer inv-token-7781') {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('missing token');
    } else if (stock !== null) {
      const count = stock[1] === 'SKU-1' ? 12 : 0;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ sku: stock[1], count }));
    } else if (url.pathname === '/warehouses' && url.searchParams.get('region') === 'north') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('north warehouse: Oslo');
    } else if (url.pathname === '/weather') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ city: url.searchParams.get('city'), sky: 'snow' }));
    } else res.writeHead(404, { 'content-type': 'text/plain' }).end('no such route');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const SPEC = (url: string) => `openapi: 3.0.3
info: { title: Inventory, version: '1' }
servers:
  - url: ${url}
components:
  schemas:
    Sku: { type: string, pattern: '^SKU-[0-9]+$' }
paths:
  /stock/{sku}:
    get:
      operationId: getStock
      summary: Units in stock for one SKU
      tags: [stock]
      parameters:
        - { name: sku, in: path, required: true, schema: { $ref: '#/components/schemas/Sku' } }
  /warehouses:
    get:
      operationId: findWarehouse
      summary: The warehouse of a region
      tags: [stock]
      parameters:
        - { name: region, in: query, required: true, schema: { type: string } }
    post:
      operationId: addWarehouse
      tags: [admin]
`;

function toolText(messages: readonly ConversationMessage[], name: string): string {
  const found = messages.find((m) => m.role === 'tool' && m.toolName === name);
  if (found?.role !== 'tool') throw new Error(`no result of ${name}`);
  return found.content;
}

test('an agent calls two operations of an OpenAPI document and a REST tool; its report uses all answers', async () => {
  const api = await inventoryApi();
  let offered: string[] = [];
  const steps: Step[] = [
    (request) => {
      offered = request.tools.map((t) => t.name).sort();
      return {
        toolCalls: [
          { name: 'inventory__getStock', arguments: { sku: 'SKU-1' } },
          { name: 'inventory__findWarehouse', arguments: { region: 'north' } },
          { name: 'rest__weather', arguments: { city: 'Oslo' } },
        ],
      };
    },
    (request, nonce) => {
      const stock = JSON.parse(toolText(request.messages, 'inventory__getStock')) as { count: number };
      const where = toolText(request.messages, 'inventory__findWarehouse');
      const sky = (JSON.parse(toolText(request.messages, 'rest__weather')) as { sky: string }).sky;
      const tag = `ai-agent-${nonce()}-FINAL`;
      return {
        text: `<${tag} tool="agent__final_report" status="success" format="markdown">${stock.count} units; ${where}; sky: ${sky}</${tag}>`,
      };
    },
  ];
  const server = await scriptedServer(steps);
  const ws = workspace(server, {
    'ask.ai': agentFile('models: test/scripted-model\nmaxTurns: 4\ntools: [inventory, weather]'),
  });
  mkdirSync(ws.file('specs'));
  ws.write('specs/inventory.yaml', SPEC(api.url));
  const config = JSON.parse(readFileSync(ws.file('agent.json'), 'utf8'));
  config.openapiSpecs = {
    inventory: {
      spec: './specs/inventory.yaml',
      tags: ['stock'],
      auth: { type: 'bearer', token: '${INVENTORY_TOKEN}' },
    },
  };
  config.restTools = {
    weather: {
      description: 'Weather of a city',
      url: `${api.url}/weather?city=\${parameters.city}`,
      headers: { authorization: 'Bearer ${INVENTORY_TOKEN}' },
      parametersSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  };
  ws.write('agent.json', JSON.stringify(config, null, 2));
  const run = await runCli(
    ['run', ws.file('ask.ai'), 'Where is SKU-1 and how many?', '--config', ws.file('agent.json')],
    {
      cwd: ws.dir,
      env: { ...isolatedEnv(ws), INVENTORY_TOKEN: 'inv-token-7781' },
    },
  );
  expect(run.stderr).not.toContain('inv-token-7781');
  expect(run.code).toBe(0);
  expect(run.stdout).toContain('12 units; north warehouse: Oslo; sky: snow');
  // The filter kept the `stock` operations: not `addWarehouse` (tagged admin).
  expect(offered.filter((name) => !name.startsWith('agent__'))).toEqual([
    'inventory__findWarehouse',
    'inventory__getStock',
    'rest__weather',
  ]);
  const listed = await runCli(['list', '--agent', ws.file('ask.ai'), '--config', ws.file('agent.json')], {
    cwd: ws.dir,
    env: { ...isolatedEnv(ws), INVENTORY_TOKEN: 'inv-token-7781' },
  });
  expect(listed.stdout).toContain('HTTP APIs:\n  weather (rest GET)\n  inventory (openapi)\n');
  expect(api.seen.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
    'GET /stock/SKU-1',
    'GET /warehouses?region=north',
    'GET /weather?city=Oslo',
  ]);
}, 60_000);

test('a config whose restTools entry has an unknown key is refused, naming the key and the closest one', async () => {
  const ws = workspace(
    { url: 'http://127.0.0.1:9' },
    { 'ask.ai': agentFile('models: test/m\ntools: [weather]') },
  );
  const config = JSON.parse(readFileSync(ws.file('agent.json'), 'utf8'));
  config.restTools = { weather: { description: 'w', url: 'http://127.0.0.1:9/w', metod: 'GET' } };
  ws.write('agent.json', JSON.stringify(config));
  const run = await runCli(['validate', ws.file('ask.ai'), '--config', ws.file('agent.json')], {
    cwd: ws.dir,
    env: isolatedEnv(ws),
  });
  expect(run.code).not.toBe(0);
  expect(run.stderr).toContain('unknown key `metod` in `restTools.weather`; did you mean `method`?');
});
