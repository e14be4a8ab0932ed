import { type AgentCard, TaskState } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createA2aHeadend, type ServedHeadend, serve } from '../../src/index.js';
import { echoAnswer, finalReport, lastUserText, startAgents, type TestAgents } from '../helpers/agents.js';
import { a2aClient, asTask, sendRequest, statusText, text, userMessage } from './a2a-client.js';

// The A2A face with the official SDK's client (v1.0 JSON-RPC): real agents over the testkit
// model server, real HTTP on a loopback port.
let agents: TestAgents;
let server: ServedHeadend;

const COUNT_SCHEMA = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };

beforeAll(async () => {
  agents = await startAgents(
    (request) => {
      const prompt = lastUserText(request.messages);
      if (prompt.startsWith('count')) return { text: [finalReport('{"n": 7}', 'json')] };
      return echoAnswer(request);
    },
    ['echo', 'counter'],
    {
      echo: 'usage: Ask me anything and I echo it.\n',
      counter: `output:\n  format: json\n  schema: ${JSON.stringify(COUNT_SCHEMA)}\n`,
    },
  );
  server = await serve(createA2aHeadend({ catalog: agents.catalog, tokens: ['t1'] }));
});

afterAll(async () => {
  await server.close();
  await agents.close();
});

describe('A2A face with the official client', () => {
  it('serves a card per agent: skill with the usage example, media types by format, bearer auth, both versions', async () => {
    const response = await fetch(`${server.url}/a2a/echo/.well-known/agent-card.json`);
    expect(response.status).toBe(200);
    const card = (await response.json()) as AgentCard;
    expect(card.name).toBe('echo');
    expect(card.description).toBe('The echo test agent.');
    expect(card.skills).toEqual([
      expect.objectContaining({ id: 'echo', examples: ['Ask me anything and I echo it.'] }),
    ]);
    expect(card.defaultOutputModes).toEqual(['text/markdown']);
    expect(card.capabilities?.streaming).toBe(true);
    expect(Object.keys(card.securitySchemes)).toEqual(['bearer']);
    expect(card.supportedInterfaces).toEqual([
      expect.objectContaining({
        url: `${server.url}/a2a/echo`,
        protocolBinding: 'JSONRPC',
        protocolVersion: '1.0',
      }),
      expect.objectContaining({
        url: `${server.url}/a2a/echo`,
        protocolBinding: 'JSONRPC',
        protocolVersion: '0.3',
      }),
    ]);
    const counter = (await (
      await fetch(`${server.url}/a2a/counter/.well-known/agent-card.json`)
    ).json()) as AgentCard;
    expect(counter.defaultOutputModes).toEqual(['application/json']);
  });

  it('answers a send with the markdown report as a text part of the artifact', async () => {
    const client = await a2aClient(server.url, 'echo', 't1');
    const task = asTask(await client.sendMessage(sendRequest(userMessage([text('hello a2a')]))));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts).toHaveLength(1);
    expect(task.artifacts[0]?.parts).toEqual([
      expect.objectContaining({
        content: { $case: 'text', value: 'Echo: hello a2a' },
        mediaType: 'text/markdown',
      }),
    ]);
  });

  it('answers a json agent with the report as a data part', async () => {
    const client = await a2aClient(server.url, 'counter', 't1');
    const task = asTask(await client.sendMessage(sendRequest(userMessage([text('count the things')]))));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts[0]?.parts).toEqual([
      expect.objectContaining({ content: { $case: 'data', value: { n: 7 } }, mediaType: 'application/json' }),
    ]);
    expect(statusText(task)).toBe('');
  });
});
