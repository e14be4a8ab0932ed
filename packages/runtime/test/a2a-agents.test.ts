// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is config syntax here
// Issue 41: a remote A2A agent (served by the official SDK's own server) as an agent's tools.
import { finalReport, type ModelServer, type ScriptStep, startModelServer } from '@agent/testkit';
import { type RemoteAgent, startRemoteAgent } from '@agent/testkit/a2a';
import { afterEach, expect, test } from 'vitest';
import { createAgentRunner } from '../src/index.js';
import { sessionConfigOf } from './helpers/prepare.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function remote(): Promise<RemoteAgent> {
  const agent = await startRemoteAgent();
  closers.push(() => agent.close());
  return agent;
}

async function models(steps: ScriptStep[]): Promise<ModelServer> {
  const server = await startModelServer({ steps });
  closers.push(() => server.close());
  return server;
}

const SCHEMA = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

test('the parent calls <name>__<skill> with output_schema: the remote data artifact comes back validated', async () => {
  const desk = await remote();
  const server = await models([
    {
      toolCalls: [
        { id: 'c1', name: 'desk__weather', arguments: { prompt: 'Paris?', output_schema: SCHEMA } },
      ],
    },
    finalReport({ city: 'Paris', temperature: 21 }),
  ]);
  const root = tempTree({
    'agent.json': localConfig(
      {
        a2aAgents: {
          desk: {
            url: desk.cardUrl,
            headers: { Authorization: 'Bearer ${DESK_TOKEN}' },
            skills: ['weather', 'answer'],
          },
        },
      },
      `${server.url}/v1`,
    ),
    'a.ai': agentFile('models: [local/m]\ntools: [desk]\noutput:\n  format: json\nmaxTurns: 4'),
  });
  const runner = await createAgentRunner('a.ai', isolated(root, { env: { DESK_TOKEN: 'tok-123456' } }));
  try {
    const result = await runner.run('what is the weather in Paris?');
    expect(result.success, result.error).toBe(true);
    const offered = server.requests[0]!.tools.map((t) => t.name).filter((n) => n.startsWith('desk__'));
    expect(offered.sort()).toEqual(['desk__answer', 'desk__weather']);
    const toolMessages = server.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(JSON.parse(String(toolMessages[0]))).toEqual({ city: 'Paris', temperature: 21 });
    expect(desk.metadata.at(-1)).toMatchObject({ skillId: 'weather', outputSchema: SCHEMA });
    expect(desk.authorizations.at(-1)).toBe('Bearer tok-123456');
    expect(result.finalReport?.content_json).toEqual({ city: 'Paris', temperature: 21 });
  } finally {
    await runner.close();
  }
});

test('approval.tools globs over skill ids; a name in a2aAgents and mcpServers is ambiguous; a bad card names its line', async () => {
  const desk = await remote();
  const root = tempTree({
    'agent.json': localConfig({
      a2aAgents: { desk: { url: desk.cardUrl, approval: { tools: ['weath*'] } } },
    }),
    'a.ai': agentFile('models: [local/m]\ntools: [desk]'),
  });
  const { config } = await sessionConfigOf('a.ai', isolated(root));
  expect(config.approval).toEqual({ tools: ['desk__weath*'] });
  const both = tempTree({
    'agent.json': localConfig({
      a2aAgents: { desk: { url: desk.cardUrl } },
      mcpServers: { desk: { url: 'http://127.0.0.1:9/mcp' } },
    }),
    'a.ai': agentFile('models: [local/m]\ntools: [desk]'),
  });
  await expect(createAgentRunner('a.ai', isolated(both))).rejects.toThrow(
    /defined in mcpServers and a2aAgents/,
  );
  const missing = desk.cardUrl.replace('agent-card', 'gone');
  const bad = tempTree({
    'agent.json': localConfig({
      a2aAgents: { desk: { url: missing, headers: { 'X-Key': 'secret-value-1' } } },
    }),
    'a.ai': agentFile('models: [local/m]\ntools: [desk]'),
  });
  const error = await createAgentRunner('a.ai', isolated(bad)).catch((e: Error) => e);
  expect(String(error)).toMatch(/agent\.json:\d+: a2aAgents\.desk: cannot read the A2A agent card at http/);
  expect(String(error)).not.toContain('secret-value-1');
});

test('oauth client_credentials: the token from the agent’s own token endpoint is sent; other grants are refused', async () => {
  const desk = await startRemoteAgent({ oauth: { clientId: 'desk-client', clientSecret: 'desk-secret-42' } });
  closers.push(() => desk.close());
  const endpoint = desk.cardUrl.replace('/.well-known/agent-card.json', '/a2a');
  expect((await fetch(endpoint, { method: 'POST', body: '{}' })).status).toBe(401);
  const server = await models([
    { toolCalls: [{ id: 'c1', name: 'desk__answer', arguments: { prompt: 'hi' } }] },
    finalReport('done'),
  ]);
  const oauth = {
    grant: 'client_credentials',
    clientId: 'desk-client',
    clientSecret: '${DESK_SECRET}',
    issuer: new URL(desk.cardUrl).origin,
  };
  const root = tempTree({
    'agent.json': localConfig({ a2aAgents: { desk: { url: desk.cardUrl, oauth } } }, `${server.url}/v1`),
    'a.ai': agentFile('models: [local/m]\ntools: [desk]\nmaxTurns: 3'),
  });
  const runner = await createAgentRunner('a.ai', isolated(root, { env: { DESK_SECRET: 'desk-secret-42' } }));
  try {
    const result = await runner.run('go');
    expect(result.success, result.error).toBe(true);
    const toolMessages = server.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(toolMessages).toEqual(['hello from remote: hi']);
    expect(desk.issued).toHaveLength(1);
    expect(desk.authorizations).toContain(`Bearer ${desk.issued[0]}`);
  } finally {
    await runner.close();
  }
  const login = tempTree({
    'agent.json': localConfig({ a2aAgents: { desk: { url: desk.cardUrl, oauth: { clientId: 'x' } } } }),
    'a.ai': agentFile('models: [local/m]\ntools: [desk]'),
  });
  await expect(createAgentRunner('a.ai', isolated(login))).rejects.toThrow(
    /agent\.json:\d+: a2aAgents\.desk: `oauth` supports only `grant: client_credentials`/,
  );
});

test('cache: a second identical call is answered from the cache; a remote question (input-required) is never kept', async () => {
  const desk = await remote();
  const call = (id: string, name: string) => ({ toolCalls: [{ id, name, arguments: { prompt: 'hi' } }] });
  const server = await models([
    call('c1', 'desk__answer'),
    call('c2', 'desk__answer'),
    call('c3', 'desk__ask'),
    call('c4', 'desk__ask'),
    finalReport('done'),
  ]);
  const root = tempTree({
    'agent.json': localConfig(
      {
        a2aAgents: { desk: { url: desk.cardUrl, cache: '1h' } },
        cache: { backend: 'sqlite', path: './cache.sqlite' },
      },
      `${server.url}/v1`,
    ),
    'a.ai': agentFile('models: [local/m]\ntools: [desk]\nmaxTurns: 6'),
  });
  const runner = await createAgentRunner('a.ai', isolated(root));
  try {
    const result = await runner.run('go');
    expect(result.success, result.error).toBe(true);
    const toolMessages = server.requests[4]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(toolMessages.slice(0, 2)).toEqual(['hello from remote: hi', 'hello from remote: hi']);
    expect(String(toolMessages[3])).toContain('Which city?');
    const skills = desk.metadata.map((m) => m.skillId);
    expect(skills).toEqual(['answer', 'ask', 'ask']);
  } finally {
    await runner.close();
  }
});

test('queue: calls wait in the named queue (size 1), one after the other', async () => {
  const desk = await remote();
  const server = await models([
    {
      toolCalls: [
        { id: 'c1', name: 'desk__pause', arguments: { prompt: 'a' } },
        { id: 'c2', name: 'desk__pause', arguments: { prompt: 'b' } },
      ],
    },
    finalReport('done'),
  ]);
  const root = tempTree({
    'agent.json': localConfig(
      { a2aAgents: { desk: { url: desk.cardUrl, queue: 'one' } }, queues: { one: 1 } },
      `${server.url}/v1`,
    ),
    'a.ai': agentFile('models: [local/m]\ntools: [desk]\nmaxTurns: 3'),
  });
  const runner = await createAgentRunner('a.ai', isolated(root));
  try {
    const result = await runner.run('go');
    expect(result.success, result.error).toBe(true);
    expect(desk.log).toEqual(['start a', 'end a', 'start b', 'end b']);
  } finally {
    await runner.close();
  }
});
