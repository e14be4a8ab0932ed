import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { expect, test } from 'vitest';
import { openRedisSessionStore, openSqliteSessionStore } from '../src/index.js';
import { refusalOf, sharedRedis, tempDir, testSnapshot } from './helpers.js';

// Issue 37: a stored snapshot carries an HMAC-SHA-256 tag; one edited in the store is refused
// with its own error code, never resumed. Keys rotate: earlier keys still read.
const KEY_A = 'key-a-0123456789abcdef0123456789abcdef';
const KEY_B = 'key-b-0123456789abcdef0123456789abcdef';
const KEY_C = 'key-c-0123456789abcdef0123456789abcdef';
const TAMPERED = 'session_snapshot_tampered';

/** Changes one byte of the stored JSON: the turn 3 becomes 4. */
const editOneByte = (text: string) => {
  expect(text).toContain('"turn":3');
  return text.replace('"turn":3', '"turn":4');
};

test('sqlite: a snapshot with one byte changed on disk is refused with a clear error, never loaded', async () => {
  const path = join(tempDir(), 'sessions.sqlite');
  const store = await openSqliteSessionStore({ path, ttlMs: 60_000, snapshotKeys: { current: KEY_A } });
  try {
    await store.save(testSnapshot('s-edit'));
    expect((await store.load('s-edit'))?.turn).toBe(3);
    const db = new Database(path);
    const row = db.prepare('SELECT snapshot FROM sessions WHERE id = ?').get('s-edit') as {
      snapshot: string;
    };
    db.prepare('UPDATE sessions SET snapshot = ? WHERE id = ?').run(editOneByte(row.snapshot), 's-edit');
    db.close();
    const error = await refusalOf(store.load('s-edit'));
    expect(error.code).toBe(TAMPERED);
    expect(error.message).toContain('session s-edit');
    expect(error.message).toContain('fails its integrity check');
    expect(error.message).not.toContain(KEY_A);
  } finally {
    await store.close();
  }
});

test('redis: a snapshot with one byte changed in Redis is refused with the same error', async () => {
  const redis = await sharedRedis();
  const store = await openRedisSessionStore({
    url: redis.url,
    ttlMs: 60_000,
    snapshotKeys: { current: KEY_A },
  });
  const client = new Redis(redis.url, { lazyConnect: false, maxRetriesPerRequest: 1 });
  try {
    await store.save(testSnapshot('s-redis-edit'));
    expect((await store.load('s-redis-edit'))?.turn).toBe(3);
    const key = 'agent:session:s-redis-edit';
    const text = (await client.get(key))!;
    await client.set(key, editOneByte(text), 'KEEPTTL');
    const error = await refusalOf(store.load('s-redis-edit'));
    expect(error.code).toBe(TAMPERED);
    expect(error.message).toContain('fails its integrity check');
  } finally {
    client.disconnect();
    await store.close();
  }
});

test('rotation: a snapshot sealed with the previous key still loads; new writes use the current key; an unknown key is refused', async () => {
  const path = join(tempDir(), 'sessions.sqlite');
  const old = await openSqliteSessionStore({ path, ttlMs: 60_000, snapshotKeys: { current: KEY_A } });
  await old.save(testSnapshot('s-rot'));
  await old.close();

  const rotated = await openSqliteSessionStore({
    path,
    ttlMs: 60_000,
    snapshotKeys: { current: KEY_B, previous: [KEY_A] },
  });
  expect((await rotated.load('s-rot'))?.turn).toBe(3);
  await rotated.save(testSnapshot('s-new', { turn: 5 }));
  await rotated.close();

  const onlyB = await openSqliteSessionStore({ path, ttlMs: 60_000, snapshotKeys: { current: KEY_B } });
  expect((await onlyB.load('s-new'))?.turn).toBe(5);
  expect((await refusalOf(onlyB.load('s-rot'))).code).toBe(TAMPERED);
  await onlyB.close();

  // A key this store never had does not open it (store-key-check.test.ts has the details).
  const other = openSqliteSessionStore({ path, ttlMs: 60_000, snapshotKeys: { current: KEY_C } });
  await expect(other).rejects.toThrow(
    'seals snapshots with another key than the processes that wrote this store',
  );
});

test('no key configured: one is generated beside the SQLite file (mode 0600) and kept for the next open', async () => {
  const dir = tempDir();
  const path = join(dir, 'sessions.sqlite');
  const first = await openSqliteSessionStore({ path, ttlMs: 60_000 });
  await first.save(testSnapshot('s-gen'));
  await first.close();
  const keyFile = join(dir, 'snapshot.key');
  expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  const second = await openSqliteSessionStore({ path, ttlMs: 60_000 });
  expect((await second.load('s-gen'))?.turn).toBe(3);
  await second.close();
  // Another key (another deployment's file) is refused at open, before any session is read.
  const stranger = openSqliteSessionStore({ path, ttlMs: 60_000, snapshotKeys: { current: KEY_C } });
  await expect(stranger).rejects.toMatchObject({ code: 'configuration' });
});

test('a snapshot without a tag is refused whatever its version, and left as it was', async () => {
  const path = join(tempDir(), 'sessions.sqlite');
  const store = await openSqliteSessionStore({ path, ttlMs: 60_000, snapshotKeys: { current: KEY_A } });
  try {
    await store.save(testSnapshot('s-v1', { turn: 3, version: 1 }));
    await store.save(testSnapshot('s-v2', { turn: 3, version: 2 }));
    const db = new Database(path);
    const put = db.prepare('UPDATE sessions SET snapshot = ? WHERE id = ?');
    put.run(JSON.stringify(testSnapshot('s-v1', { turn: 3, version: 1 })), 's-v1');
    put.run(JSON.stringify(testSnapshot('s-v2', { turn: 3, version: 2 })), 's-v2');
    for (const id of ['s-v1', 's-v2']) {
      const error = await refusalOf(store.load(id));
      expect(error.code).toBe(TAMPERED);
      expect(error.message).toContain(`session ${id} has no integrity tag`);
      expect(error.message).toContain('`agent sessions seal`');
    }
    const stored = db.prepare('SELECT snapshot FROM sessions WHERE id = ?').get('s-v1') as {
      snapshot: string;
    };
    expect(stored.snapshot).toBe(JSON.stringify(testSnapshot('s-v1', { turn: 3, version: 1 })));
    db.close();
  } finally {
    await store.close();
  }
});
