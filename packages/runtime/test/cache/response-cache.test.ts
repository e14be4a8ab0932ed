import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { finalReport } from '@agent/testkit';
import { afterEach, expect, test, vi } from 'vitest';
import { createAgentRunner, runAgentFile } from '../../src/index.js';
import { answeringServer, cachedAgentTree, recorder } from './helpers.js';

afterEach(() => {
  vi.useRealTimers();
});

test('the second identical run makes no model request and returns the same report; a different prompt misses', async () => {
  const server = await answeringServer();
  const { root, options } = cachedAgentTree(server, 'cache: 1h', {
    cache: { path: './cache/answers.sqlite' },
  });

  const first = await runAgentFile('a.ai', 'What is 6 x 7?', options);
  expect(first.finalReport).toMatchObject({ status: 'success', content: 'Answer #1 to: What is 6 x 7?' });
  expect(server.calls).toBe(1);
  // The path in agent.json is relative to the file: the store is there, in its own directory.
  expect(existsSync(join(root, 'cache', 'answers.sqlite'))).toBe(true);

  // A new runner (a new process would do the same): the answer comes from the SQLite file.
  const seen = recorder();
  const second = await runAgentFile('a.ai', 'What is 6 x 7?', { ...options, onEvent: seen.onEvent });
  expect(server.calls).toBe(1);
  expect(second.success).toBe(true);
  expect(second.exitCode).toBe('EXIT-FINAL-ANSWER');
  expect(second.finalReport).toEqual(first.finalReport);

  // Visible: an event, an accounting entry at cost 0 marked cached, the op tree's session node.
  expect(seen.ofType('cache_hit')).toEqual([
    {
      type: 'cache_hit',
      hit: {
        kind: 'response',
        key: expect.stringMatching(/^[0-9a-f]{16}$/),
        backend: 'sqlite',
        ageMs: expect.any(Number),
        expiresInMs: expect.any(Number),
      },
    },
  ]);
  expect(second.accounting).toEqual([
    expect.objectContaining({
      type: 'llm',
      status: 'ok',
      provider: 'local',
      model: 'm',
      costUsd: 0,
      cached: true,
      tokens: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    }),
  ]);
  expect(second.opTree).toMatchObject({ kind: 'session', label: 'a', status: 'ok', cached: true });
  expect(second.opTree?.totals).toMatchObject({ llmCalls: 0, costUsd: 0 });
  // What a listener printing the answer needs: the report as output and as final_report.
  expect(seen.ofType('output').map((e) => e.text)).toEqual(['Answer #1 to: What is 6 x 7?']);
  expect(seen.events.find((e) => e.event.type === 'final_report')?.meta).toMatchObject({
    isMaster: true,
    isFinal: true,
  });
  expect(second.logs.map((l) => l.message)).toContainEqual(
    expect.stringMatching(
      /^answered from the response cache \(sqlite, key [0-9a-f]{16}, stored .* by local\/m/,
    ),
  );

  const other = await runAgentFile('a.ai', 'What is 7 x 8?', options);
  expect(server.calls).toBe(2);
  expect(other.finalReport?.content).toBe('Answer #2 to: What is 7 x 8?');
  expect(other.accounting.some((entry) => entry.cached)).toBe(false);
});

test('everything that determines the answer is in the key: history, format, model; an agent without cache is never cached', async () => {
  const server = await answeringServer();
  const { options } = cachedAgentTree(server, 'cache: 1h', { cache: { backend: 'memory' } });
  const runner = await createAgentRunner('a.ai', options);
  try {
    await runner.run('Hello');
    await runner.run('Hello');
    expect(server.calls).toBe(1);
    await runner.run({
      prompt: 'Hello',
      history: [
        { role: 'user', content: 'earlier' },
        { role: 'assistant', content: 'yes' },
      ],
    });
    expect(server.calls).toBe(2);
    await runner.run('Hello', { format: 'text' });
    expect(server.calls).toBe(3);
    await runner.run('Hello', { maxTurns: 3 });
    expect(server.calls).toBe(4);
    await runner.run('Hello', { headendId: 'someone-else' }); // who asks does not change the answer
    expect(server.calls).toBe(4);
  } finally {
    await runner.close();
  }
  // Another model (`--model`): another answer.
  const other = await createAgentRunner('a.ai', { ...options, models: ['local/other'] });
  try {
    await other.run('Hello');
    expect(server.calls).toBe(5);
  } finally {
    await other.close();
  }
  const uncached = cachedAgentTree(server, 'description: no cache key', { cache: { backend: 'memory' } });
  await runAgentFile('a.ai', 'Hello', uncached.options);
  await runAgentFile('a.ai', 'Hello', uncached.options);
  expect(server.calls).toBe(7);
});

test('a changed agent file misses: the prompt is part of the agent hash', async () => {
  const server = await answeringServer();
  const { root, options } = cachedAgentTree(server, 'cache: 1h', { cache: { path: 'c.sqlite' } });
  await runAgentFile('a.ai', 'Hi', options);
  await runAgentFile('a.ai', 'Hi', options);
  expect(server.calls).toBe(1);
  const { writeFileSync } = await import('node:fs');
  writeFileSync(
    join(root, 'a.ai'),
    '---\nmodels: [local/m]\ncache: 1h\n---\nYou are a different agent now.\n',
  );
  await runAgentFile('a.ai', 'Hi', options);
  expect(server.calls).toBe(2);
});

test('entries expire after the TTL (a fake clock)', async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2025-01-01T00:00:00Z') });
  const server = await answeringServer();
  const { options } = cachedAgentTree(server, 'cache: 30s', { cache: { backend: 'memory' } });
  const runner = await createAgentRunner('a.ai', options);
  try {
    await runner.run('Tell me the time');
    vi.setSystemTime(new Date('2025-01-01T00:00:29.999Z'));
    const hit = await runner.run('Tell me the time');
    expect(hit.accounting[0]?.cached).toBe(true);
    expect(server.calls).toBe(1);
    vi.setSystemTime(new Date('2025-01-01T00:00:30.000Z'));
    const expired = await runner.run('Tell me the time');
    expect(server.calls).toBe(2);
    expect(expired.finalReport?.content).toBe('Answer #2 to: Tell me the time');
  } finally {
    await runner.close();
  }
});

test('maxEntries: the least recently used answer is evicted first', async () => {
  const server = await answeringServer();
  const { options } = cachedAgentTree(server, 'cache: 1h', { cache: { backend: 'memory', maxEntries: 2 } });
  const runner = await createAgentRunner('a.ai', options);
  try {
    for (const prompt of ['A', 'B', 'A', 'C']) await runner.run(prompt);
    expect(server.calls).toBe(3); // A, B, C: the second A was a hit, and made A recent
    await runner.run('A');
    expect(server.calls).toBe(3);
    await runner.run('B'); // evicted when C came in
    expect(server.calls).toBe(4);
  } finally {
    await runner.close();
  }
});

test('only successful reports are cached', async () => {
  let status: 'failure' | 'success' = 'failure';
  const server = await answeringServer(() => finalReport(`reported ${status}`, { status }));
  const { options } = cachedAgentTree(server, 'cache: 1h', { cache: { backend: 'memory' } });
  const runner = await createAgentRunner('a.ai', options);
  try {
    const failed = await runner.run('Do it');
    expect(failed.finalReport).toMatchObject({ status: 'failure' });
    await runner.run('Do it');
    expect(server.calls).toBe(2);
    status = 'success';
    await runner.run('Do it');
    await runner.run('Do it');
    expect(server.calls).toBe(3);
  } finally {
    await runner.close();
  }
});

test('a sub-agent with its own cache is answered from it; its node under the parent says cached', async () => {
  const server = await answeringServer((request) => {
    const system = String(request.messages[0]?.content ?? '');
    const prompt = String(request.messages.find((m) => m.role === 'user')?.content ?? '');
    if (system.startsWith('You look things up')) return finalReport(`looked up: ${prompt}`);
    const toolResults = request.messages.filter((m) => m.role === 'tool');
    if (toolResults.length === 0) {
      return {
        toolCalls: [
          { name: 'agent__lookup', arguments: { prompt: 'the capital of France' } },
          { name: 'agent__lookup', arguments: { prompt: 'the capital of Spain' } },
        ],
      };
    }
    if (toolResults.length === 2)
      return { toolCalls: [{ name: 'agent__lookup', arguments: { prompt: 'the capital of France' } }] };
    return finalReport(toolResults.map((m) => m.content).join('; '));
  });
  const { options } = cachedAgentTree(
    server,
    'agents: [./lookup.ai]',
    { cache: { backend: 'memory' } },
    {
      'lookup.ai':
        '---\nmodels: [local/m]\ncache: 1h\ndescription: Looks things up.\n---\nYou look things up.\n',
    },
  );
  const seen = recorder();
  const result = await runAgentFile('a.ai', 'Capitals?', { ...options, onEvent: seen.onEvent });
  expect(result.finalReport?.content).toBe(
    'looked up: the capital of France; looked up: the capital of Spain; looked up: the capital of France',
  );
  // parent x3, lookup x2 (France, Spain); the second France came from the cache.
  expect(server.calls).toBe(5);
  const hits = seen.events.filter((e) => e.event.type === 'cache_hit');
  expect(hits.map((e) => e.meta)).toEqual([
    expect.objectContaining({ isMaster: false, agentPath: 'a.lookup' }),
  ]);
  const cachedEntries = result.accounting.filter((entry) => entry.cached);
  expect(cachedEntries).toEqual([
    expect.objectContaining({ type: 'llm', agentPath: 'a.lookup', costUsd: 0 }),
  ]);
  const toolNodes = result.opTree!.children.flatMap((turn) => turn.children.filter((n) => n.kind === 'tool'));
  expect(toolNodes.map((node) => node.children[0]?.cached ?? false)).toEqual([false, false, true]);
});

test('a durable run (checkpoints, as a queue worker runs it) is answered from the cache too', async () => {
  const server = await answeringServer();
  const { options } = cachedAgentTree(server, 'cache: 1h', { cache: { path: './cache/answers.sqlite' } });
  const runner = await createAgentRunner('a.ai', options);
  try {
    const first = await runner.run('What is 6 x 7?', { durable: true, sessionId: 'durable-1' });
    expect(first.success, first.success ? undefined : first.error).toBe(true);
    expect(server.calls).toBe(1);
    const second = await runner.run('What is 6 x 7?', { durable: true, sessionId: 'durable-2' });
    expect(second.success, second.success ? undefined : second.error).toBe(true);
    expect(second.finalReport).toEqual(first.finalReport);
    expect(server.calls).toBe(1);
  } finally {
    await runner.close();
  }
});
