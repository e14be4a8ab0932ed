import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentRunner, createAgentRunner } from '@agent/runtime';
import { finalReport, type ModelServer, startModelServer } from '@agent/testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCatalog,
  createMcpHeadend,
  createOpenAiHeadend,
  createRestHeadend,
  type ServedHeadend,
  serve,
} from '../src/index.js';
import { served } from './helpers/agents.js';

// A real agent with a handoff (`@agent/runtime`): `main` answers, `formatter` rewrites the answer.
// Listings show the chain; a chat reply is the formatter's report only.

let model: ModelServer;
let dir: string;
let runners: AgentRunner[] = [];
let headends: ServedHeadend[] = [];

beforeAll(async () => {
  model = await startModelServer({
    handler: (request) =>
      request.model === 'main-model' ? finalReport('raw answer from main') : finalReport('Formatted answer.'),
  });
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'headends-orchestration-')));
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({ providers: { local: { type: 'openai-compatible', baseURL: `${model.url}/v1` } } }),
  );
  writeFileSync(
    join(dir, 'main.ai'),
    '---\ndescription: Answers questions.\nmodels: [local/main-model]\nhandoff: ./formatter.ai\n---\nAnswer.\n',
  );
  writeFileSync(join(dir, 'formatter.ai'), '---\nmodels: [local/fmt-model]\n---\nFormat the response.\n');
  const options = {
    cwd: dir,
    env: {},
    userConfigDir: join(dir, '.none'),
    systemConfigDir: join(dir, '.none'),
  };
  runners = [await createAgentRunner(join(dir, 'main.ai'), options)];
  const catalog = createCatalog(runners.map(served));
  headends = [
    await serve(createOpenAiHeadend({ catalog, tokens: ['t'] })),
    await serve(createMcpHeadend({ catalog, tokens: ['t'] })),
    await serve(createRestHeadend({ catalog, tokens: ['t'] })),
  ];
});

afterAll(async () => {
  await Promise.all(headends.map((headend) => headend.close()));
  await Promise.all(runners.map((runner) => runner.close()));
  await model.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('headends show and honour an agent orchestration', () => {
  it('model listings and agent descriptions name the chain', async () => {
    const openai = new OpenAI({ baseURL: `${headends[0]!.url}/v1`, apiKey: 't', maxRetries: 0 });
    const models = await openai.models.list();
    expect(models.data[0]).toMatchObject({
      id: 'main',
      orchestration: { advisors: [], handoff: 'formatter' },
    });

    const client = new Client({ name: 'orchestration-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${headends[1]!.url}/mcp`), {
        requestInit: { headers: { authorization: 'Bearer t' } },
      }),
    );
    const { tools } = await client.listTools();
    expect(tools[0]?.description).toBe('Answers questions.\nIts answer is finished by formatter.');
    await client.close();

    const rest = await fetch(`${headends[2]!.url}/v1/agents`, { headers: { authorization: 'Bearer t' } });
    const body = (await rest.json()) as { agents: { name: string; orchestration?: unknown }[] };
    expect(body.agents[0]?.orchestration).toEqual({ advisors: [], handoff: 'formatter' });
  });

  it('a streamed chat reply is the handoff agent report, without the text it was given', async () => {
    const openai = new OpenAI({ baseURL: `${headends[0]!.url}/v1`, apiKey: 't', maxRetries: 0 });
    const stream = await openai.chat.completions.create({
      model: 'main',
      messages: [{ role: 'user', content: 'Question?' }],
      stream: true,
    });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta?.content ?? '';
    expect(content).toBe('Formatted answer.');
    const plain = await openai.chat.completions.create({
      model: 'main',
      messages: [{ role: 'user', content: 'Question?' }],
    });
    expect(plain.choices[0]?.message.content).toBe('Formatted answer.');
  });
});
