// Issue 35: a cache shared by two projects (one SQLite file, or one Redis) must never answer one
// project with what the other was told: the keys hold everything that changes an answer, the
// credentials by hash only (never the secret itself, in the key or in the stored row).
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { finalReport, type RecordedRequest } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { createAgentRunner, runAgentFile } from '../../src/index.js';
import { agentFile, isolated, localConfig, tempTree } from '../helpers/temp-tree.js';
import { answeringServer } from './helpers.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** An API that says whose token it was given (`GET /me`). */
async function whoAmI(): Promise<{ url: string; calls: string[] }> {
  const calls: string[] = [];
  const owners: Record<string, string> = {
    'Bearer token-of-project-a': 'alice',
    'Bearer token-of-project-b': 'bob',
  };
  const server = createServer((req, res) => {
    const owner = owners[req.headers.authorization ?? ''] ?? 'nobody';
    calls.push(owner);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ user: owner }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls };
}

/** A model that calls `rest__me`, then reports what it said. */
function asksWhoAmI(request: RecordedRequest) {
  const result = request.messages.find((m) => m.role === 'tool');
  if (result === undefined) return { toolCalls: [{ name: 'rest__me', arguments: {} }] };
  return finalReport(`the API says: ${String(result.content)}`);
}

/** Every row of the SQLite cache at `path`: its key and its value as text (brotli after one format byte). */
function storedRows(path: string): string[] {
  const require = createRequire(require_resolve('@agent/cache'));
  const Database = require('better-sqlite3') as new (
    path: string,
    options: object,
  ) => { prepare(sql: string): { all(): { key: string; value: Buffer }[] }; close(): void };
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare('SELECT key, value FROM cache_entries')
      .all()
      .map((row) => `${row.key} ${brotliDecompressSync(row.value.subarray(1)).toString('utf8')}`);
  } finally {
    db.close();
  }
}

function require_resolve(name: string): string {
  return createRequire(import.meta.url).resolve(name);
}

test("two projects' HTTP tools on one cache: project B never gets the answer A's token got", async () => {
  const api = await whoAmI();
  const models = await answeringServer(asksWhoAmI);
  const shared = join(tempTree(), 'shared-cache.sqlite');
  const project = (token: string) =>
    tempTree({
      'agent.json': localConfig(
        {
          restTools: {
            me: {
              description: 'Who am I',
              url: `${api.url}/me`,
              auth: { type: 'bearer', token },
              cache: '1h',
            },
          },
          cache: { backend: 'sqlite', path: shared },
        },
        `${models.url}/v1`,
      ),
      'a.ai': agentFile('models: [local/m]\ntools: [me]'),
    });
  const a = await runAgentFile('a.ai', 'who am I?', isolated(project('token-of-project-a')));
  expect(a.finalReport?.content).toBe('the API says: {"user":"alice"}');
  const b = await runAgentFile('a.ai', 'who am I?', isolated(project('token-of-project-b')));
  expect(b.finalReport?.content).toBe('the API says: {"user":"bob"}');
  expect(api.calls).toEqual(['alice', 'bob']);
  // Each project still gets its own cached answer.
  const again = await runAgentFile('a.ai', 'who am I?', isolated(project('token-of-project-a')));
  expect(again.finalReport?.content).toBe('the API says: {"user":"alice"}');
  expect(api.calls).toEqual(['alice', 'bob']);
  const rows = storedRows(shared);
  expect(rows.length).toBeGreaterThanOrEqual(2);
  for (const row of rows) expect(row).not.toMatch(/token-of-project/);
});

test('the response cache tells two endpoints under one provider name apart', async () => {
  const first = await answeringServer();
  const second = await answeringServer();
  const shared = join(tempTree(), 'answers.sqlite');
  const project = (baseURL: string, extra: object = {}) =>
    tempTree({
      'agent.json': {
        providers: { local: { type: 'openai-compatible', baseURL, ...extra } },
        cache: { backend: 'sqlite', path: shared },
      },
      'a.ai': agentFile('models: [local/m]\ncache: 1h'),
    });
  const one = await runAgentFile('a.ai', 'Hello', isolated(project(`${first.url}/v1`)));
  expect(one.finalReport?.content).toBe('Answer #1 to: Hello');
  const other = await runAgentFile('a.ai', 'Hello', isolated(project(`${second.url}/v1`)));
  expect(other.accounting.some((entry) => entry.cached)).toBe(false);
  expect(second.calls).toBe(1);
  // Same endpoint, another key: another account's answer is not shared either.
  const keyed = await runAgentFile(
    'a.ai',
    'Hello',
    isolated(project(`${first.url}/v1`, { apiKey: 'sk-project-b-secret' })),
  );
  expect(keyed.accounting.some((entry) => entry.cached)).toBe(false);
  expect(first.calls).toBe(2);
  // And the same endpoint and key again: a hit.
  const runner = await createAgentRunner('a.ai', isolated(project(`${first.url}/v1`)));
  try {
    const hit = await runner.run('Hello');
    expect(hit.accounting[0]?.cached).toBe(true);
    expect(first.calls).toBe(2);
  } finally {
    await runner.close();
  }
  for (const row of storedRows(shared)) expect(row).not.toContain('sk-project-b-secret');
});
