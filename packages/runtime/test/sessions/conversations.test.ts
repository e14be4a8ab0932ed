import { join } from 'node:path';
import { openSessionStore } from '@agent/cache';
import type { RecordedRequest } from '@agent/testkit';
import {
  finalReport,
  type ModelServer,
  type RedisServer,
  type ScriptStep,
  startModelServer,
  startRedisServer,
  toolCall,
} from '@agent/testkit';
import { afterAll, afterEach, expect, test } from 'vitest';
import { createAgentRunner } from '../../src/index.js';
import { agentFile, isolated, localConfig, tempTree } from '../helpers/temp-tree.js';

// Issue 16, conversations through the runtime: `conversationId` brings back the earlier prompts
// and reports (not the tool chatter) from the configured session store, SQLite and Redis.
const servers: ModelServer[] = [];
let redis: RedisServer | undefined;
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(async () => {
  await redis?.close();
});

async function serve(steps: ScriptStep[]): Promise<ModelServer> {
  const server = await startModelServer({ steps });
  servers.push(server);
  return server;
}

function tree(server: ModelServer, sessions?: object, frontmatter = '') {
  const root = tempTree({
    'agent.json': localConfig(sessions === undefined ? {} : { sessions }, `${server.url}/v1`),
    'main.ai': agentFile(`models: [local/m]\n${frontmatter}`),
  });
  const state = join(root, 'state');
  return { root, state, options: isolated(root, { env: { XDG_STATE_HOME: state } }) };
}

/** The user and assistant texts of a request, after the system prompt, without the turn notice. */
const dialogue = (request: RecordedRequest) =>
  request.messages
    .filter((m) => m.role === 'user' || (m.role === 'assistant' && !m.toolCalls?.length))
    .filter((m) => !String(m.content).startsWith('# XML-NEXT'))
    .map((m) => `${m.role}: ${String(m.content)}`);

const THREE_RUNS: ScriptStep[] = [
  toolCall('agent__batch', { calls: [] }, { id: 'chatter_1' }),
  finalReport('Paris is the capital of France.'),
  finalReport('About 2.1 million people.'),
  finalReport('You asked about Paris.'),
];

async function threeRuns(sessions: object | undefined) {
  const server = await serve(THREE_RUNS);
  const { options, state } = tree(server, sessions);
  const runner = await createAgentRunner('main.ai', options);
  try {
    const first = await runner.run('Capital of France?', { conversationId: 'trip-1' });
    expect(first.success, first.error).toBe(true);
    const second = await runner.run('How many live there?', { conversationId: 'trip-1' });
    expect(second.success, second.error).toBe(true);
    const other = server.requests.length;
    const third = await runner.run('What did I ask first?', { conversationId: 'trip-1' });
    expect(third.success, third.error).toBe(true);
    const request = server.requests[other]!;
    expect(dialogue(request)).toEqual([
      'user: Capital of France?',
      'assistant: Paris is the capital of France.',
      'user: How many live there?',
      'assistant: About 2.1 million people.',
      'user: What did I ask first?',
    ]);
    // No tool chatter of the first run: no tool calls, no tool results.
    expect(request.messages.some((m) => m.role === 'tool')).toBe(false);
    expect(JSON.stringify(request.messages)).not.toContain('chatter_1');
  } finally {
    await runner.close();
  }
  return { state };
}

test('sqlite (the default): three runs of one conversation; the third request carries the first two prompts and reports', async () => {
  const { state } = await threeRuns(undefined);
  const store = await openSessionStore({}, { env: { XDG_STATE_HOME: state } });
  try {
    const kept = await store.loadConversation('trip-1');
    expect(kept.map((e) => e.prompt)).toEqual([
      'Capital of France?',
      'How many live there?',
      'What did I ask first?',
    ]);
  } finally {
    await store.close();
  }
});

test('redis (a real redis-server): the same three runs, the conversation kept on the server', async () => {
  redis ??= await startRedisServer();
  const { state } = await threeRuns({ store: 'redis', url: redis.url });
  // The runs' process sealed with the key generated in their state directory: read with it.
  const store = await openSessionStore(
    { store: 'redis', url: redis.url },
    { env: { ...process.env, XDG_STATE_HOME: state } },
  );
  try {
    expect((await store.loadConversation('trip-1')).map((e) => e.report)).toEqual([
      'Paris is the capital of France.',
      'About 2.1 million people.',
      'You asked about Paris.',
    ]);
  } finally {
    await store.close();
  }
});

test('a run without a conversation id, or in another conversation, gets no history', async () => {
  const server = await serve([finalReport('One.'), finalReport('Two.'), finalReport('Three.')]);
  const runner = await createAgentRunner('main.ai', tree(server).options);
  try {
    await runner.run('First?', { conversationId: 'a' });
    await runner.run('Second?');
    await runner.run('Third?', { conversationId: 'b' });
    expect(dialogue(server.requests[1]!)).toEqual(['user: Second?']);
    expect(dialogue(server.requests[2]!)).toEqual(['user: Third?']);
  } finally {
    await runner.close();
  }
});

test('a bad conversation id is EXIT-CONFIGURATION naming what is allowed; the model is never called', async () => {
  const server = await serve([finalReport('never')]);
  const runner = await createAgentRunner('main.ai', tree(server).options);
  try {
    for (const bad of ['../etc', 'has space', 'x'.repeat(129), '']) {
      const result = await runner.run('Hi', { conversationId: bad });
      expect(result.exitCode).toBe('EXIT-CONFIGURATION');
      expect(result.error).toContain('is not a conversation id (1-128 letters, digits, ".", "_", ":" or "-"');
    }
    expect(server.requests).toHaveLength(0);
  } finally {
    await runner.close();
  }
});

test('a run paused for approval and resumed adds its exchange to the conversation when it ends', async () => {
  const server = await serve([toolCall('agent__helper', { prompt: 'hi' }, { id: 'call_a' })]);
  const root = tempTree({
    'agent.json': localConfig({}, `${server.url}/v1`),
    'main.ai': agentFile('models: [local/m]\nagents: [helper.ai]\napproval:\n  tools: [agent__helper]'),
    'helper.ai': agentFile('models: [local/m]\ndescription: Says hi'),
  });
  const state = join(root, 'state');
  const runner = await createAgentRunner('main.ai', isolated(root, { env: { XDG_STATE_HOME: state } }));
  try {
    const paused = await runner.run('Greet me.', { conversationId: 'greetings' });
    expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
    server.push(finalReport('hi'), finalReport('The helper said hi.'), finalReport('Again: hi.'));
    const resumed = await runner.resume(paused.sessionId, { approvals: { call_a: { approved: true } } });
    expect(resumed.success, resumed.error).toBe(true);
    const next = server.requests.length;
    await runner.run('Say it again.', { conversationId: 'greetings' });
    expect(dialogue(server.requests[next]!)).toEqual([
      'user: Greet me.',
      'assistant: The helper said hi.',
      'user: Say it again.',
    ]);
  } finally {
    await runner.close();
  }
});

test('a run with an owner keeps its conversation and snapshots to that owner; a long id is hashed into the key', async () => {
  const server = await serve([
    finalReport('Noted: 4242.'),
    finalReport('Nothing known.'),
    finalReport('4242.'),
  ]);
  const { options } = tree(server);
  const runner = await createAgentRunner('main.ai', options);
  const long = `c${'x'.repeat(127)}`;
  try {
    await runner.run('The code is 4242.', { conversationId: long, owner: 'p-alice', durable: true });
    const other = await runner.run('The code?', { conversationId: long, owner: 'p-bob', durable: true });
    expect(JSON.stringify(server.requests.at(-1)?.messages)).not.toContain('4242');
    const stored = await runner.storedSession(other.sessionId);
    expect(stored?.snapshot.labels).toMatchObject({ owner: 'p-bob', conversationId: long });
    await runner.run('The code?', { conversationId: long, owner: 'p-alice' });
    expect(JSON.stringify(server.requests.at(-1)?.messages)).toContain('The code is 4242.');
  } finally {
    await runner.close();
  }
});
