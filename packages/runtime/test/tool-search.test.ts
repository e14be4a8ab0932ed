import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolSearchRun } from '@agent/protocol';
import { finalReport, type ModelServer, type ScriptStep, startModelServer } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { readSettingValues } from '../src/agent-file/setting-overrides.js';
import { runAgentFile, validateAgentFile } from '../src/index.js';
import { sessionConfigOf } from './helpers/prepare.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

// `toolSearch:` through the runtime (docs/tool-search.md): MCP (the fs server, a real child
// process), OpenAPI (a loopback API) and sub-agent tools alike wait behind `tool_search`; what a
// search finds, or what the model calls by name, is offered from the next request on.
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function shopApi(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.url === '/time' ? '{"now":"noon"}' : '{"products":["kettle"]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function models(steps: ScriptStep[]): Promise<ModelServer> {
  const server = await startModelServer({ strict: true, steps });
  closers.push(() => server.close());
  return server;
}

const spec = (url: string) => ({
  openapi: '3.1.0',
  info: { title: 'Shop', version: '1' },
  servers: [{ url }],
  paths: {
    '/time': { get: { operationId: 'getTime', summary: 'The time of day' } },
    '/products': { get: { operationId: 'listProducts', summary: 'Lists the products for sale in the shop' } },
  },
});

const call = (id: string, name: string, args: Record<string, unknown> = {}): ScriptStep => ({
  toolCalls: [{ id, name, arguments: args }],
});
const names = (server: ModelServer, index: number) => server.requests[index]!.tools.map((t) => t.name);
const ours = (list: string[]) =>
  list.filter(
    (n) => n.startsWith('fs__') || n.startsWith('shop__') || n === 'agent__counter' || n === 'tool_search',
  );

test('MCP, OpenAPI and sub-agent tools wait behind the search; found or called by name, they are offered and run', async () => {
  const shop = await shopApi();
  const server = await models([
    call('c1', 'tool_search', { query: 'products for sale', limit: 1 }),
    call('c2', 'shop__listProducts'),
    call('c3', 'tool_search', { query: 'read file', limit: 1 }),
    call('c4', 'fs__Read', { path: 'hello.txt' }),
    // A sub-agent called by its exact name, never searched for: it runs (its own session asks
    // the model next) and is offered from then on.
    call('c5', 'agent__counter', { prompt: 'count' }),
    finalReport('3'),
    finalReport('done'),
  ]);
  const root = tempTree({
    'agent.json': localConfig(
      {
        mcpServers: { fs: { command: 'agent-fs-mcp', args: ['./data'] } },
        openapiSpecs: { shop: { spec: './shop.json' } },
      },
      `${server.url}/v1`,
    ),
    'shop.json': spec(shop.url),
    'data/hello.txt': 'hello from the data dir\n',
    'main.ai': agentFile(
      'models: [local/m]\ntools: [fs, shop]\nagents: [./counter.ai]\nmaxTurns: 8\ntoolSearch:\n  after: 2\n  alwaysOn: [shop__getTime]',
    ),
    'counter.ai': agentFile('models: [local/m]\ndescription: Counts things.'),
  });
  const runs: ToolSearchRun[] = [];
  const result = await runAgentFile('main.ai', 'go', {
    ...isolated(root),
    onEvent: (event) => {
      if (event.type === 'tool_search') runs.push(event.run);
    },
  });
  expect(result.error).toBeUndefined();
  expect(result.finalReport?.content).toBe('done');

  expect(ours(names(server, 0))).toEqual(['shop__getTime', 'tool_search']);
  expect(ours(names(server, 1))).toEqual(['shop__getTime', 'shop__listProducts', 'tool_search']);
  expect(ours(names(server, 3))).toEqual(['shop__getTime', 'shop__listProducts', 'fs__Read', 'tool_search']);
  // Request 5 is the sub-agent's own (it has no tools); request 6 is the parent's, with the sub-agent offered.
  expect(ours(names(server, 5))).toEqual([]);
  expect(ours(names(server, 6))).toEqual([
    'shop__getTime',
    'shop__listProducts',
    'fs__Read',
    'agent__counter',
    'tool_search',
  ]);
  expect(shop.seen).toEqual(['GET /products']);
  const toolTexts = server.requests[6]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
  expect(toolTexts[0]).toMatch(/^shop__listProducts: Lists the products for sale in the shop\n/);
  expect(toolTexts[3]).toContain('hello from the data dir');
  expect(runs.map((r) => [r.query, r.added])).toEqual([
    ['products for sale', ['shop__listProducts']],
    ['read file', ['fs__Read']],
  ]);
  // Every tool but the always-on one waits behind the search.
  expect(runs[0]!.deferred).toBeGreaterThan(3);
});

test('at or under `after` every tool is sent and tool_search is not', async () => {
  const server = await models([finalReport('done')]);
  const root = tempTree({
    'agent.json': localConfig(
      { mcpServers: { fs: { command: 'agent-fs-mcp', args: ['.'] } } },
      `${server.url}/v1`,
    ),
    'main.ai': agentFile('models: [local/m]\ntools: [fs]\ntoolSearch: { after: 1000 }'),
  });
  const result = await runAgentFile('main.ai', 'go', isolated(root));
  expect(result.error).toBeUndefined();
  expect(names(server, 0)).not.toContain('tool_search');
  expect(names(server, 0).filter((n) => n.startsWith('fs__')).length).toBeGreaterThan(1);
});

test('defaults.toolSearch fills in for a silent file; the file key and --override beat it', async () => {
  const config = localConfig({ defaults: { toolSearch: { after: 40, alwaysOn: ['fs__*'] } } });
  const silent = tempTree({ 'agent.json': config, 'a.ai': agentFile('models: [local/m]') });
  expect((await sessionConfigOf('a.ai', isolated(silent))).config.toolSearch).toEqual({
    after: 40,
    alwaysOn: ['fs__*'],
  });
  const own = tempTree({
    'agent.json': config,
    'a.ai': agentFile('models: [local/m]\ntoolSearch: { after: 7 }'),
  });
  expect((await sessionConfigOf('a.ai', isolated(own))).config.toolSearch).toEqual({
    after: 7,
    alwaysOn: ['fs__*'],
  });
  expect(readSettingValues({ toolSearch: { after: 3, maxResults: 2 } }, '--override')).toEqual({
    toolSearch: { after: 3, maxResults: 2 },
  });
});

test('a bad value is refused by validate, the config and --override, naming the key, what is allowed and its line', async () => {
  const root = tempTree({
    'agent.json': localConfig(),
    'a.ai':
      '---\nmodels: [local/m]\ntoolSearch:\n  after: 1.5\n  maxResults: 50\n  deferAll: true\n---\nhi\n',
  });
  const validation = await validateAgentFile('a.ai', isolated(root));
  expect(validation.ok).toBe(false);
  expect(validation.problems).toEqual([
    {
      file: 'a.ai',
      line: 6,
      message:
        '`toolSearch.deferAll` is not a tool search setting (the keys are after, alwaysOn, maxResults, native)',
    },
    {
      file: 'a.ai',
      line: 4,
      message:
        '`toolSearch.after` must be a whole number from 0 to 100000 (tool search is on when the session has more tools; 0: always), got 1.5',
    },
    {
      file: 'a.ai',
      line: 5,
      message:
        '`toolSearch.maxResults` must be a whole number from 1 to 20 (tools per search; default 5), got 50',
    },
  ]);
  const config = tempTree({
    'agent.json': localConfig({ defaults: { toolSearch: { alwaysOn: 'fs__*' } } }),
    'a.ai': agentFile('models: [local/m]'),
  });
  const checked = await validateAgentFile('a.ai', isolated(config));
  // The config's problems come as one, each naming its key and the file's line.
  const said = checked.problems.map((p) => p.message).join('\n');
  expect(said).toContain(
    '`defaults.toolSearch.after` is required: a whole number from 0 to 100000 (tool search is on when the session has more tools; 0: always)',
  );
  expect(said).toContain(
    'agent.json:10: `defaults.toolSearch.alwaysOn` must be a list of tool-name globs (non-empty strings), e.g. ["github__*", "rest__status"], got "fs__*"',
  );
  expect(() => readSettingValues({ toolSearch: { after: -2 } }, '--override')).toThrow(
    /--override: `toolSearch\.after` must be a whole number from 0 to 100000/,
  );
});
