import { REDIS_URL_ALLOWED } from '@agent/cache';
import { expect, test } from 'vitest';
import { runAgentFile } from '../../src/index.js';
import { agentFile, isolated, localConfig, tempTree } from '../helpers/temp-tree.js';

// agent.json's `sessions` (issue 16): checked when the file is read, each problem at its line.
test('agent.json: a sessions store that cannot work is an error at its line, a Redis password never quoted', async () => {
  const check = async (config: object) => {
    const root = tempTree({ 'agent.json': localConfig(config), 'a.ai': agentFile('models: [local/m]') });
    const result = await runAgentFile('a.ai', 'hi', isolated(root));
    return result.success ? 'ok' : result.error;
  };
  expect(await check({ sessions: { store: 'postgres' } })).toMatch(
    /^agent\.json:\d+: `sessions\.store` must be one of sqlite, redis/,
  );
  const noUrl = await check({ sessions: { store: 'redis' } });
  expect(noUrl).toMatch(/^agent\.json:\d+: `sessions\.url` must be /);
  expect(noUrl.endsWith(`must be ${REDIS_URL_ALLOWED}, got nothing`)).toBe(true);
  const secret = await check({ sessions: { url: 'redis://:very-secret-pw@sessions.internal:6379' } });
  expect(secret).toMatch(
    /`sessions\.url` must be absent: `url` is for the redis store, got "redis:\/\/:\[redacted\]@sessions\.internal:6379"$/,
  );
  expect(secret).not.toContain('very-secret-pw');
  expect(await check({ sessions: { ttl: 'forever' } })).toMatch(
    /`sessions\.ttl` must be a duration such as 30m, 12h, 7d \(not off\), or milliseconds, got "forever"$/,
  );
  expect(await check({ sessions: { tll: '1d' } })).toMatch(
    /unknown key `tll` in `sessions`; did you mean `ttl`\?/,
  );
});

test('agent.json: a snapshot key shorter than 32 characters is an error at its line, the key never quoted', async () => {
  const root = tempTree({
    'agent.json': localConfig({ sessions: { snapshotKey: 'short-secret-key' } }),
    'a.ai': agentFile('models: [local/m]'),
  });
  const result = await runAgentFile('a.ai', 'hi', isolated(root));
  expect(result.success ? 'ok' : result.error).toMatch(
    /^agent\.json:\d+: `sessions\.snapshotKey` must be a key of at least 32 characters/,
  );
  expect(result.success ? '' : result.error).not.toContain('short-secret-key');
});
