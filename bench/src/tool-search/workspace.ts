// Where the tool-search suite's sessions run: an agent tree in a temp dir (agent.json with the
// model provider, the generated OpenAPI document as an `openapiSpecs` entry and the generated
// MCP server as a stdio `mcpServers` entry; one agent file per toolset, with tool search and
// without), the company API on a loopback port (it records what it was asked), and the testkit
// model server (strict) answering over HTTP, counting each request's o200k tokens.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ResolveOptions } from '@agent/runtime';
import { type ModelServer, startModelServer } from '@agent/testkit';
import { chatRequestTokens } from '../compaction/request-tokens.js';
import { catalogOperations } from './catalog.js';
import { catalogServerCommand } from './mcp-server.js';
import { catalogDocument } from './openapi-document.js';
import { answerFor, INSTRUCTIONS, TOOLSET_ENTRY, type Toolset } from './script.js';

const PROVIDER = 'local';
const MODEL = 'gpt-4.1-mini';
/** Tool search turns on above this many tools: far below the catalog, far above a real agent's few. */
export const SEARCH_AFTER = 30;

/** A call the company API received. */
export interface ApiHit {
  method: string;
  path: string;
  body: string;
}

/** What the model server saw of one request. */
export interface RequestFigures {
  tokens: number;
  /** Names of the tool definitions offered. */
  tools: string[];
}

export interface Workspace {
  resolve: ResolveOptions;
  agentFile(toolset: Toolset, search: boolean): string;
  model: ModelServer;
  /** Requests of the model server so far, in order. */
  requests: RequestFigures[];
  /** ms the server spent counting tokens (not the runtime's cost). */
  countingMs(): number;
  apiHits: ApiHit[];
  /** Calls the MCP server ran so far (its log). */
  mcpCalls(): { name: string; arguments: unknown }[];
  close(): Promise<void>;
}

async function startCompanyApi(hits: ApiHit[]): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const hit = { method: req.method ?? '', path: req.url ?? '', body };
      hits.push(hit);
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ done: `${hit.method} ${hit.path}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function agentFileText(toolset: Toolset, search: boolean): string {
  const lines = [
    '---',
    `models: [${PROVIDER}/${MODEL}]`,
    `tools: [${TOOLSET_ENTRY[toolset]}]`,
    'maxTurns: 8',
  ];
  if (search) lines.push('toolSearch:', `  after: ${SEARCH_AFTER}`);
  return [...lines, '---', INSTRUCTIONS, ''].join('\n');
}

/** Writes the agent tree for a catalog of `operations` and starts its servers; `close` stops and removes all. */
export async function openWorkspace(operations: number): Promise<Workspace> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'bench-tool-search-')));
  const requests: RequestFigures[] = [];
  let countingMs = 0;
  const model = await startModelServer({
    strict: true,
    handler: (request) => {
      const started = performance.now();
      const tokens = chatRequestTokens(request.body);
      countingMs += performance.now() - started;
      requests.push({ tokens, tools: request.tools.map((tool) => tool.name) });
      return { ...answerFor(request), usage: { inputTokens: tokens } };
    },
  });
  const apiHits: ApiHit[] = [];
  const api = await startCompanyApi(apiHits);
  const catalog = catalogOperations(operations);
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(catalogDocument(catalog, api.url)));
  const callsFile = join(dir, 'mcp-calls.jsonl');
  writeFileSync(callsFile, '');
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({
      providers: { [PROVIDER]: { type: 'openai', baseURL: `${model.url}/v1`, apiKey: 'bench-key' } },
      // No person to approve calls here: the planted operation is a POST (which waits by default).
      openapiSpecs: { [TOOLSET_ENTRY.openapi]: { spec: './openapi.json', approval: false } },
      mcpServers: { [TOOLSET_ENTRY.mcp]: { type: 'stdio', ...catalogServerCommand(operations, callsFile) } },
    }),
  );
  for (const toolset of ['openapi', 'mcp'] as const)
    for (const search of [false, true])
      writeFileSync(join(dir, fileName(toolset, search)), agentFileText(toolset, search));
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  return {
    resolve: {
      cwd: dir,
      env: {},
      userConfigDir: empty,
      systemConfigDir: empty,
      aiAgentHomeDir: empty,
      aiAgentSystemDir: empty,
    },
    agentFile: (toolset, search) => join(dir, fileName(toolset, search)),
    model,
    requests,
    countingMs: () => countingMs,
    apiHits,
    mcpCalls: () =>
      readFileSync(callsFile, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { name: string; arguments: unknown }),
    async close() {
      await model.close();
      await new Promise<void>((resolve) => api.server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function fileName(toolset: Toolset, search: boolean): string {
  return `${toolset}-${search ? 'search' : 'all'}.ai`;
}
