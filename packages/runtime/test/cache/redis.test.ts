// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the config files use ${REDIS_URL}.
import { startRedisServer } from '@agent/testkit';
import { expect, test } from 'vitest';
import { runAgentFile } from '../../src/index.js';
import { answeringServer, cachedAgentTree, recorder } from './helpers.js';

const PASSWORD = 'redis-pass-4f9c2e';

test('the Redis backend: two runners (as two machines would) share answers through a real redis-server', async () => {
  const redis = await startRedisServer({ password: PASSWORD });
  try {
    const server = await answeringServer();
    const { options } = cachedAgentTree(server, 'cache: 5m', {
      cache: { backend: 'redis', url: '${REDIS_URL}' },
    });
    const env = { REDIS_URL: redis.url };
    const first = await runAgentFile('a.ai', 'Shared question', { ...options, env });
    const seen = recorder();
    const second = await runAgentFile('a.ai', 'Shared question', { ...options, env, onEvent: seen.onEvent });
    expect(server.calls).toBe(1);
    expect(second.finalReport).toEqual(first.finalReport);
    expect(seen.ofType('cache_hit')[0]?.hit).toMatchObject({ kind: 'response', backend: 'redis' });
    expect(JSON.stringify([first, second, seen.events])).not.toContain(PASSWORD);
  } finally {
    await redis.close();
  }
});

test('a Redis server that refuses the password: a warning without the password, and the run goes on uncached', async () => {
  const redis = await startRedisServer({ password: PASSWORD });
  try {
    const server = await answeringServer();
    const wrong = `redis://:wrong-${PASSWORD}@127.0.0.1:${redis.port}`;
    const { options } = cachedAgentTree(server, 'cache: 5m', { cache: { backend: 'redis', url: wrong } });
    const seen = recorder();
    const result = await runAgentFile('a.ai', 'Anything', { ...options, onEvent: seen.onEvent });
    expect(result.success).toBe(true);
    const warning = result.logs.find((l) => l.severity === 'WRN' && l.remoteIdentifier === 'agent:cache');
    expect(warning?.message).toMatch(
      new RegExp(
        `^the redis cache is unavailable, running without it: Redis cache redis://:\\[redacted\\]@127\\.0\\.0\\.1:${redis.port}: cannot connect`,
      ),
    );
    await runAgentFile('a.ai', 'Anything', options);
    expect(server.calls).toBe(2);
    expect(JSON.stringify([result, seen.events])).not.toContain(PASSWORD);
  } finally {
    await redis.close();
  }
});

test("ai-agent's form: .ai-agent.json `cache: { backend: redis, redis: { url } }` with the URL from .ai-agent.env", async () => {
  const redis = await startRedisServer({ password: PASSWORD });
  try {
    const server = await answeringServer();
    const { options } = cachedAgentTree(
      server,
      'cache: 6mo',
      {},
      {
        '.ai-agent.json': { cache: { backend: 'redis', redis: { url: '${LEGACY_REDIS}' }, maxEntries: 50 } },
        '.ai-agent.env': `LEGACY_REDIS=${redis.url}\n`,
      },
    );
    const first = await runAgentFile('a.ai', 'Legacy question', options);
    const seen = recorder();
    const second = await runAgentFile('a.ai', 'Legacy question', { ...options, onEvent: seen.onEvent });
    expect(server.calls).toBe(1);
    expect(second.finalReport).toEqual(first.finalReport);
    expect(seen.ofType('cache_hit')[0]?.hit).toMatchObject({ kind: 'response', backend: 'redis' });
    expect(JSON.stringify([first, second, seen.events])).not.toContain(PASSWORD);
  } finally {
    await redis.close();
  }
});
