import { type AgentCard, type StreamResponse, TaskState } from '@a2a-js/sdk';
import {
  a2aClient,
  asTask,
  bearerFetch,
  postV03Send,
  sendRequest,
  statusText,
  textPart as text,
  userMessage,
} from '@agent/testkit/a2a';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createA2aHeadend, type ServedHeadend, serve } from '../../src/index.js';
import { echoAnswer, finalReport, lastUserText, startAgents, type TestAgents } from '../helpers/agents.js';

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
      if (prompt.startsWith('hang')) return { text: 'late', fault: 'hang' };
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
    expect(card.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: expect.objectContaining({ scheme: 'Bearer' }) },
    });
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
    const client = await a2aClient(`${server.url}/a2a`, 'echo', 't1');
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
    const client = await a2aClient(`${server.url}/a2a`, 'counter', 't1');
    const task = asTask(await client.sendMessage(sendRequest(userMessage([text('count the things')]))));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts[0]?.parts).toEqual([
      expect.objectContaining({ content: { $case: 'data', value: { n: 7 } }, mediaType: 'application/json' }),
    ]);
    expect(statusText(task)).toBe('');
  });

  it('streams the task, WORKING, the artifact and COMPLETED', async () => {
    const client = await a2aClient(`${server.url}/a2a`, 'echo', 't1');
    const seen: StreamResponse['payload'][] = [];
    for await (const event of client.sendMessageStream(sendRequest(userMessage([text('stream me')])))) {
      seen.push(event.payload);
    }
    const kinds = seen.map((payload) => payload?.$case);
    expect(kinds[0]).toBe('task');
    const states = seen.flatMap((payload) =>
      payload?.$case === 'statusUpdate' ? [payload.value.status?.state] : [],
    );
    expect(states).toEqual([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED]);
    const artifact = seen.find((payload) => payload?.$case === 'artifactUpdate');
    expect(artifact?.$case === 'artifactUpdate' && artifact.value.artifact?.parts[0]?.content).toEqual({
      $case: 'text',
      value: 'Echo: stream me',
    });
    // The artifact comes before the last status.
    expect(kinds.indexOf('artifactUpdate')).toBeLessThan(kinds.lastIndexOf('statusUpdate'));
  });

  it('cancels a running task: the run is aborted (the model request closes) and the task is CANCELED', async () => {
    const client = await a2aClient(`${server.url}/a2a`, 'echo', 't1');
    const before = agents.model.requests.length;
    const started = asTask(await client.sendMessage(sendRequest(userMessage([text('hang on')]), true)));
    const deadline = Date.now() + 10_000;
    while (agents.model.requests.length === before && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(agents.model.requests.length).toBe(before + 1);
    const canceled = await client.cancelTask({ tenant: '', id: started.id, metadata: {} });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(await agents.model.closedAt(before, 5000)).toBeDefined();
    const read = await client.getTask({ tenant: '', id: started.id });
    expect(read.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('refuses calls without a token; the card stays public', async () => {
    const response = await fetch(`${server.url}/a2a/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { message: 'missing token: send Authorization: Bearer <token>' },
    });
    // Only the card path is public: a longer path under the agent is not.
    expect((await fetch(`${server.url}/a2a/echo/x/.well-known/agent-card.json`)).status).toBe(401);
    const noToken = await a2aClient(`${server.url}/a2a`, 'echo', undefined);
    await expect(noToken.sendMessage(sendRequest(userMessage([text('hi')])))).rejects.toThrow(
      /401|missing token/,
    );
  });

  it("answers another token's task as not found", async () => {
    const face = await serve(createA2aHeadend({ catalog: agents.catalog, tokens: ['t1', 't2'] }));
    try {
      const owner = await a2aClient(`${face.url}/a2a`, 'echo', 't1');
      const other = await a2aClient(`${face.url}/a2a`, 'echo', 't2');
      const own = asTask(await owner.sendMessage(sendRequest(userMessage([text('mine only')]))));
      const read = await owner.getTask({ tenant: '', id: own.id });
      expect(read.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(read.history.length).toBeGreaterThan(0);
      await expect(other.getTask({ tenant: '', id: own.id })).rejects.toThrow(/Task not found/);
      const list = {
        tenant: '',
        contextId: '',
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageToken: '',
        statusTimestampAfter: undefined,
      };
      expect((await owner.listTasks(list)).tasks.map((task) => task.id)).toEqual([own.id]);
      expect((await other.listTasks(list)).tasks).toEqual([]);
      await expect(other.cancelTask({ tenant: '', id: own.id, metadata: {} })).rejects.toThrow(
        /Task not found/,
      );
      const followUp = userMessage([text('let me in')], own.id, own.contextId);
      await expect(other.sendMessage(sendRequest(followUp))).rejects.toThrow(/Task not found/);
    } finally {
      await face.close();
    }
  });

  it('answers a raw v0.3 message/send with a v0.3 task and a text part', async () => {
    const response = await postV03Send(`${server.url}/a2a/echo`, 't1', 'v03', 'old client');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: string; result: Record<string, unknown> };
    expect(body.id).toBe('v03');
    expect(body.result).toMatchObject({
      kind: 'task',
      status: { state: 'completed' },
      artifacts: [{ parts: [{ kind: 'text', text: 'Echo: old client' }] }],
    });
  });

  it('answers malformed JSON-RPC and unknown agents with clear errors', async () => {
    const post = (path: string, body: string) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: 'Bearer t1', 'content-type': 'application/json', 'A2A-Version': '1.0' },
        body,
      });
    const broken = await post('/a2a/echo', '{"jsonrpc": "2.0", ');
    expect(await broken.json()).toMatchObject({
      id: null,
      error: { code: -32700, message: /malformed JSON body/ },
    });
    const notRpc = await post(
      '/a2a/echo',
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'NoSuchMethod', params: {} }),
    );
    expect(await notRpc.json()).toMatchObject({ id: 3, error: { code: -32601 } });
    const unknown = await post(
      '/a2a/nobody',
      JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'GetTask', params: { id: 'x' } }),
    );
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      error: { message: 'no agent named "nobody" (served: echo, counter)' },
    });
    const card = await fetch(`${server.url}/a2a/nobody/.well-known/agent-card.json`);
    expect(card.status).toBe(404);
    const root = await fetch(`${server.url}/.well-known/agent-card.json`);
    expect(root.status).toBe(404);
    expect(await root.json()).toMatchObject({ error: { message: /serves 2 agents/ } });
    const emptyMessage = await a2aClient(`${server.url}/a2a`, 'echo', 't1');
    const task = asTask(await emptyMessage.sendMessage(sendRequest(userMessage([]))));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    expect(statusText(task)).toBe('the message has no text or data part to ask the agent');
  });

  it('with one agent serves its card at the root; publicCard false needs a token for it', async () => {
    const one = {
      list: () => [agents.catalog.get('echo')!.info],
      get: (name: string) => agents.catalog.get(name),
    };
    const face = await serve(
      createA2aHeadend({
        catalog: one,
        tokens: ['t1'],
        publicCard: false,
        publicUrl: 'https://agents.example.com/',
      }),
    );
    try {
      expect((await fetch(`${face.url}/.well-known/agent-card.json`)).status).toBe(401);
      const card = (await (
        await bearerFetch('t1')(`${face.url}/.well-known/agent-card.json`)
      ).json()) as AgentCard;
      expect(card.name).toBe('echo');
      expect(card.supportedInterfaces[0]?.url).toBe('https://agents.example.com/a2a/echo');
    } finally {
      await face.close();
    }
  });

  it('a send beyond the concurrency limit and queue is refused with 429, Retry-After and the reason', async () => {
    const face = await serve(
      createA2aHeadend({
        catalog: agents.catalog,
        tokens: ['t1'],
        concurrency: 1,
        queueSize: 0,
        retryAfterSeconds: 3,
      }),
    );
    try {
      const client = await a2aClient(`${face.url}/a2a`, 'echo', 't1');
      const running = asTask(await client.sendMessage(sendRequest(userMessage([text('hang here')]), true)));
      const response = await postV03Send(`${face.url}/a2a/echo`, 't1', 9, 'hi');
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('3');
      expect(await response.json()).toMatchObject({
        id: 9,
        error: { message: expect.stringMatching(/queue|busy|full/i) },
      });
      await client.cancelTask({ tenant: '', id: running.id, metadata: {} });
    } finally {
      await face.close();
    }
  });
});
