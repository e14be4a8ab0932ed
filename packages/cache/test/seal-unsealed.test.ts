import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentError } from '@agent/protocol';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { expect, test } from 'vitest';
import { MAX_LISTED_SKIPS, openRedisSessionStore, openSqliteSessionStore } from '../src/index.js';
import { refusalOf, sharedRedis, tempDir } from './helpers.js';

// Issue 37: a snapshot without an integrity tag is never resumed, whatever version it claims:
// anyone who can write to the store could otherwise skip the seal by writing an untagged
// "version 1" snapshot. The snapshots written before tags are sealed once, on purpose, by
// `sealUnsealedSnapshots` (`agent sessions seal`).
const KEY = 'key-a-0123456789abcdef0123456789abcdef';
const TAMPERED = 'session_snapshot_tampered';

/** A version 1 snapshot as the release before tags wrote it (paused for an approval). */
const V1_TEXT = readFileSync(
  new URL('../../core/test/checkpoint/fixtures/snapshot-v1-paused.json', import.meta.url),
  'utf8',
);
const FIXTURE_ID = 'fixture-paused-v1';

/** The fixture as session `id`, untagged, at `version`. */
function untagged(id: string, version = 1): string {
  return JSON.stringify({ ...JSON.parse(V1_TEXT), sessionId: id, version });
}

/** The refusal of an untagged snapshot: what it is and what to do. */
function expectUntaggedRefusal(error: AgentError, id: string): void {
  expect(error.code).toBe(TAMPERED);
  expect(error.message).toContain(`the stored snapshot of session ${id} has no integrity tag`);
  expect(error.message).toContain('the stored snapshot is left as it was');
  expect(error.message).toContain('written by a release before tags (version 1)');
  expect(error.message).toContain('`agent sessions seal`');
}

function sqliteRows(path: string) {
  const db = new Database(path);
  const put = db.prepare(
    'INSERT OR REPLACE INTO sessions (id, snapshot, updated_at, expires_at) VALUES (?, ?, 1, ?)',
  );
  const get = db.prepare<[string], { snapshot: string; expires_at: number }>(
    'SELECT snapshot, expires_at FROM sessions WHERE id = ?',
  );
  return {
    put: (id: string, text: string, expiresAt = Date.now() + 3_600_000) => put.run(id, text, expiresAt),
    get: (id: string) => get.get(id),
    close: () => db.close(),
  };
}

test('sqlite: an untagged version 1 snapshot written into the file is refused; sealing it makes it load', async () => {
  const path = join(tempDir(), 'sessions.sqlite');
  const store = await openSqliteSessionStore({ path, ttlMs: 60_000, snapshotKeys: { current: KEY } });
  const rows = sqliteRows(path);
  try {
    rows.put(FIXTURE_ID, V1_TEXT);
    expectUntaggedRefusal(await refusalOf(store.load(FIXTURE_ID)), FIXTURE_ID);
    expect(rows.get(FIXTURE_ID)?.snapshot).toBe(V1_TEXT);

    const expiresAt = rows.get(FIXTURE_ID)!.expires_at;
    expect(await store.sealUnsealedSnapshots()).toEqual({ sealed: 1, skipped: [], unlisted: 0 });
    const loaded = await store.load(FIXTURE_ID);
    expect(loaded).toEqual(JSON.parse(V1_TEXT));
    expect(loaded?.status).toBe('awaiting_approval');
    // Sealed as it was: its JSON byte for byte behind the tag line, its expiry kept.
    expect(rows.get(FIXTURE_ID)?.snapshot.endsWith(`\n${V1_TEXT}`)).toBe(true);
    expect(rows.get(FIXTURE_ID)?.expires_at).toBe(expiresAt);
    // Nothing left to seal.
    expect(await store.sealUnsealedSnapshots()).toEqual({ sealed: 0, skipped: [], unlisted: 0 });
  } finally {
    rows.close();
    await store.close();
  }
});

test('sqlite: a version 2 snapshot stripped of its tag is refused and not sealed; neither is junk; sealed ones are untouched', async () => {
  const path = join(tempDir(), 'sessions.sqlite');
  const store = await openSqliteSessionStore({ path, ttlMs: 60_000, snapshotKeys: { current: KEY } });
  const rows = sqliteRows(path);
  try {
    await store.save({ ...JSON.parse(untagged('s-v2', 2)), pending: [] });
    const sealedText = rows.get('s-v2')!.snapshot;
    const stripped = sealedText.slice(sealedText.indexOf('\n') + 1);
    rows.put('s-v2-stripped', stripped.replace('"sessionId":"s-v2"', '"sessionId":"s-v2-stripped"'));
    rows.put('s-junk', '{"sessionId":');
    rows.put('s-other', untagged('someone-else'));
    rows.put('s-expired', untagged('s-expired'), Date.now() - 1000);
    expectUntaggedRefusal(await refusalOf(store.load('s-v2-stripped')), 's-v2-stripped');

    const report = await store.sealUnsealedSnapshots();
    expect(report.sealed).toBe(0);
    expect(report.skipped).toEqual([
      { sessionId: 's-junk', why: 'it is not valid JSON' },
      { sessionId: 's-other', why: 'it is not a snapshot of this session' },
      {
        sessionId: 's-v2-stripped',
        why: 'it is version 2, and only version 1 snapshots (written before tags) are sealed: a newer one without a tag was written or changed outside this program',
      },
    ]);
    expectUntaggedRefusal(await refusalOf(store.load('s-v2-stripped')), 's-v2-stripped');
    expect(rows.get('s-v2')?.snapshot).toBe(sealedText);
    expect(rows.get('s-expired')?.snapshot).toBe(untagged('s-expired'));
  } finally {
    rows.close();
    await store.close();
  }
});

test('sqlite: many snapshots are sealed page by page, and skipped ones are listed up to the bound', async () => {
  const path = join(tempDir(), 'sessions.sqlite');
  const store = await openSqliteSessionStore({ path, ttlMs: 60_000, snapshotKeys: { current: KEY } });
  const rows = sqliteRows(path);
  try {
    for (let i = 0; i < 250; i++) rows.put(`v1-${i}`, untagged(`v1-${i}`));
    for (let i = 0; i < MAX_LISTED_SKIPS + 5; i++) rows.put(`v3-${i}`, untagged(`v3-${i}`, 3));
    const report = await store.sealUnsealedSnapshots();
    expect(report.sealed).toBe(250);
    expect(report.skipped).toHaveLength(MAX_LISTED_SKIPS);
    expect(report.unlisted).toBe(5);
    expect((await store.load('v1-249'))?.sessionId).toBe('v1-249');
  } finally {
    rows.close();
    await store.close();
  }
});

test('redis: an untagged version 1 snapshot SET into Redis is refused; sealing it (SCAN over the prefix) makes it load', async () => {
  const redis = await sharedRedis();
  const prefix = 'seal-test:session:';
  const store = await openRedisSessionStore({
    url: redis.url,
    ttlMs: 60_000,
    prefix,
    snapshotKeys: { current: KEY },
  });
  const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  try {
    await client.set(prefix + FIXTURE_ID, V1_TEXT, 'PX', 3_600_000);
    expectUntaggedRefusal(await refusalOf(store.load(FIXTURE_ID)), FIXTURE_ID);
    expect(await client.get(prefix + FIXTURE_ID)).toBe(V1_TEXT);

    // Beside it: more old snapshots (several SCAN steps), a stripped version 2 one, a turn
    // journal, and an untagged snapshot under another deployment's prefix.
    for (let i = 0; i < 250; i++) await client.set(`${prefix}v1-${i}`, untagged(`v1-${i}`));
    await client.set(`${prefix}s-v2`, untagged('s-v2', 2));
    await client.rpush(`${prefix}s-v2#journal`, 'not a snapshot');
    await client.set(`${prefix}s-v2#journal-bytes`, '14');
    await client.set('other:session:v1-x', untagged('v1-x'));

    const report = await store.sealUnsealedSnapshots();
    expect(report.sealed).toBe(251);
    expect(report.skipped).toEqual([
      {
        sessionId: 's-v2',
        why: 'it is version 2, and only version 1 snapshots (written before tags) are sealed: a newer one without a tag was written or changed outside this program',
      },
    ]);
    expect(await store.load(FIXTURE_ID)).toEqual(JSON.parse(V1_TEXT));
    expect((await store.load('v1-0'))?.sessionId).toBe('v1-0');
    // Its expiry kept; the key without one still has none.
    expect(await client.pttl(prefix + FIXTURE_ID)).toBeGreaterThan(3_000_000);
    expect(await client.pttl(`${prefix}v1-0`)).toBe(-1);
    expectUntaggedRefusal(await refusalOf(store.load('s-v2')), 's-v2');
    expect(await client.get(`${prefix}s-v2`)).toBe(untagged('s-v2', 2));
    expect(await client.lrange(`${prefix}s-v2#journal`, 0, -1)).toEqual(['not a snapshot']);
    expect(await client.get('other:session:v1-x')).toBe(untagged('v1-x'));
    expect(await store.sealUnsealedSnapshots()).toEqual({ sealed: 0, skipped: report.skipped, unlisted: 0 });
  } finally {
    client.disconnect();
    await store.close();
  }
});
