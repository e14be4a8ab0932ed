import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REDIS_URL_ALLOWED } from '@agent/cache';
import { expect, test } from 'vitest';
import { runAgentFile, validateAgentFile } from '../../src/index.js';
import { agentFile, isolated, localConfig, tempTree } from '../helpers/temp-tree.js';
import { answeringServer, cachedAgentTree } from './helpers.js';

const TTL_WORDS =
  'off, a number of milliseconds, or a duration such as 30s, 5m, 1h, 1d, 1w, 1mo, 1y (at most a year)';

test('a cache TTL the agent file cannot mean is a load error at its line', async () => {
  const root = tempTree({
    'agent.json': localConfig(),
    'a.ai': agentFile('models: [local/m]\ndescription: x\ncache: 5 minutes'),
    'b.ai': agentFile('models: [local/m]\ncache: [1h]'),
    'c.ai': agentFile('models: [local/m]\ncache: 2y'),
  });
  const a = await validateAgentFile('a.ai', isolated(root));
  expect(a.problems).toEqual([
    { file: 'a.ai', line: 4, message: `\`cache\` must be ${TTL_WORDS}, got "5 minutes"` },
  ]);
  const b = await validateAgentFile('b.ai', isolated(root));
  expect(b.problems).toEqual([
    { file: 'b.ai', line: 3, message: `\`cache\` must be ${TTL_WORDS}, got a list of 1 item` },
  ]);
  const c = await runAgentFile('c.ai', 'hi', isolated(root));
  expect(c).toMatchObject({
    success: false,
    exitCode: 'EXIT-CONFIGURATION',
    error: `c.ai:3: \`cache\` must be ${TTL_WORDS}, got "2y"`,
  });
  for (const ttl of ['off', '90000', '30s', '1w']) {
    writeFileSync(join(root, 'd.ai'), agentFile(`models: [local/m]\ncache: ${ttl}`));
    expect((await validateAgentFile('d.ai', isolated(root))).problems).toEqual([]);
  }
});

test('agent.json: server TTLs and the store are checked when the file is read, at their lines, secrets never quoted', async () => {
  const check = async (config: object) => {
    const root = tempTree({ 'agent.json': localConfig(config), 'a.ai': agentFile('models: [local/m]') });
    const result = await runAgentFile('a.ai', 'hi', isolated(root));
    return result.success ? 'ok' : result.error;
  };
  expect(
    await check({ mcpServers: { fs: { command: 'agent-fs-mcp', toolsCache: { Read: '5 min' } } } }),
  ).toMatch(
    new RegExp(
      `^agent\\.json:\\d+: \`mcpServers\\.fs\\.toolsCache\\.Read\` must be ${escapeRegExp(TTL_WORDS)}, got "5 min"$`,
    ),
  );
  expect(await check({ mcpServers: { fs: { command: 'agent-fs-mcp', cache: -1 } } })).toMatch(
    /^agent\.json:\d+: `mcpServers\.fs\.cache` must be off, .*, got -1$/,
  );
  expect(await check({ cache: { backend: 'rediss', url: 'redis://x' } })).toMatch(
    /^agent\.json:\d+: `cache\.backend` must be one of sqlite, redis, memory, got "rediss"; did you mean `redis`\?$/,
  );
  const noUrl = await check({ cache: { backend: 'redis' } });
  expect(noUrl).toMatch(/^agent\.json:\d+: `cache\.url` must be /);
  expect(noUrl.endsWith(`must be ${REDIS_URL_ALLOWED} (the redis backend needs one), got nothing`)).toBe(
    true,
  );
  const secret = await check({ cache: { url: 'redis://:very-secret-pw@cache.internal:6379' } });
  expect(secret).toMatch(
    /`cache\.url` must be absent: `url` is for the redis backend, not sqlite, got "redis:\/\/:\[redacted\]@cache\.internal:6379"$/,
  );
  expect(secret).not.toContain('very-secret-pw');
  const wrongType = await check({ cache: { backend: 'redis', url: 42 } });
  expect(wrongType).toMatch(/^agent\.json:\d+: `cache\.url` must be /);
  expect(wrongType.endsWith(`must be ${REDIS_URL_ALLOWED}`)).toBe(true);
  expect(await check({ cache: { maxEntrys: 5 } })).toMatch(
    /unknown key `maxEntrys` in `cache`; did you mean `maxEntries`\?/,
  );
});

test('no file is touched unless something caches; the default store is the user cache directory', async () => {
  const server = await answeringServer();
  const xdg = tempTree();
  const plain = cachedAgentTree(server, 'description: no cache');
  await runAgentFile('a.ai', 'hi', { ...plain.options, env: { XDG_CACHE_HOME: xdg } });
  expect(existsSync(join(xdg, 'agent'))).toBe(false);
  const cached = cachedAgentTree(server, 'cache: 1h');
  await runAgentFile('a.ai', 'hi', { ...cached.options, env: { XDG_CACHE_HOME: xdg } });
  await runAgentFile('a.ai', 'hi', { ...cached.options, env: { XDG_CACHE_HOME: xdg } });
  expect(existsSync(join(xdg, 'agent', 'cache.sqlite'))).toBe(true);
  expect(server.calls).toBe(2);
});

test('a store that cannot be opened is a warning: the run goes on, uncached', async () => {
  const server = await answeringServer();
  const { root, options } = cachedAgentTree(server, 'cache: 1h', {
    cache: { path: './blocked/cache.sqlite' },
  });
  writeFileSync(join(root, 'blocked'), 'a file where the directory should be');
  const result = await runAgentFile('a.ai', 'hi', options);
  expect(result.success).toBe(true);
  expect(result.logs.filter((l) => l.severity === 'WRN').map((l) => l.message)).toEqual([
    expect.stringMatching(
      /^the sqlite cache is unavailable, running without it: cannot open the SQLite cache .*blocked\/cache\.sqlite: /,
    ),
  ]);
  await runAgentFile('a.ai', 'hi', options);
  expect(server.calls).toBe(2);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
