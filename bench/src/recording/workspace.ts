// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${parameters.page}` is config syntax here
// Where the recording suite's sessions run: an agent tree in a temp dir (agent.json with the
// model provider and the page API as a `restTools` entry, one agent file), the page API on a
// loopback port (it counts its hits), and the testkit model server (strict) answering over HTTP.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResolveOptions } from '@agent/runtime';
import { type ModelServer, startModelServer } from '@agent/testkit';
import { answerFor, INSTRUCTIONS, PAGE_BYTES, pageBody, TOOL_API } from './script.js';

/** The agent's file name in the workspace, and its model as `provider/model`. */
export const AGENT_FILE = 'reader.ai';
const PROVIDER = 'local';
export const MODEL = 'gpt-4.1-mini';

export interface Workspace {
  dir: string;
  agentFile: string;
  /** How runners (and replays) find their config: this dir only, never the user's home. */
  resolve: ResolveOptions;
  model: ModelServer;
  /** Requests the page API answered so far. */
  apiHits(): number;
  close(): Promise<void>;
}

async function startPageApi(): Promise<{ server: Server; url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits += 1;
    const page = Number(/\/page\/(\d+)$/.exec(req.url ?? '')?.[1]);
    if (!Number.isInteger(page) || page < 1) res.writeHead(404).end('no such page');
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(pageBody(page));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => hits };
}

/** Starts the model server and the page API and writes the agent tree; `close` stops and removes all. */
export async function openWorkspace(): Promise<Workspace> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'bench-recording-')));
  const model = await startModelServer({ strict: true, handler: answerFor });
  const api = await startPageApi();
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({
      providers: { [PROVIDER]: { type: 'openai', baseURL: `${model.url}/v1`, apiKey: 'bench-key' } },
      restTools: {
        [TOOL_API]: {
          description: `One page of the survey as text (${PAGE_BYTES} bytes).`,
          url: `${api.url}/page/\${parameters.page}`,
          parametersSchema: {
            type: 'object',
            properties: { page: { type: 'integer', description: 'The page number, from 1.' } },
            required: ['page'],
          },
        },
      },
    }),
  );
  writeFileSync(
    join(dir, AGENT_FILE),
    `---\nmodels: [${PROVIDER}/${MODEL}]\ntools: [${TOOL_API}]\nmaxTurns: 40\n---\n${INSTRUCTIONS}\n`,
  );
  return {
    dir,
    agentFile: join(dir, AGENT_FILE),
    resolve: {
      cwd: dir,
      env: {},
      userConfigDir: empty,
      systemConfigDir: empty,
      aiAgentHomeDir: empty,
      aiAgentSystemDir: empty,
    },
    model,
    apiHits: api.hits,
    async close() {
      await model.close();
      await new Promise<void>((resolve) => api.server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
