import { join } from 'node:path';
import { AgentError, type SessionStore } from '@agent/protocol';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, test } from 'vitest';
import { openRedisSessionStore, openSessionStore, openSqliteSessionStore } from '../src/index.js';
import { keyCheckValue } from '../src/sessions/key-check.js';
import type { SnapshotKeys } from '../src/sessions/snapshot-seal.js';
import { sharedRedis, tempDir, testSnapshot } from './helpers.js';

// Issue 37: processes that seal snapshots with different keys cannot read each other's
// sessions. A store keeps a check of its key (never the key) and refuses, at open, a process
// whose key is another one, instead of losing the sessions one by one later.
const KEY_A = 'key-a-0123456789abcdef0123456789abcdef';
const KEY_B = 'key-b-0123456789abcdef0123456789abcdef';
const MISMATCH = 'this process seals snapshots with another key than the processes that wrote this store';

/** The error an open must throw (never a store). */
async function openFailure(open: Promise<SessionStore>): Promise<AgentError> {
  const outcome = await open.then(
    async (store) => {
      await store.close();
      return { opened: true };
    },
    (error: unknown) => ({ error }),
  );
  expect(outcome).not.toHaveProperty('opened');
  const { error } = outcome as { error: unknown };
  expect(AgentError.is(error)).toBe(true);
  return error as AgentError;
}

/** A message names the problem and the fix, and no key nor any check value. */
function expectSafeMismatch(error: AgentError, ...keys: string[]) {
  expect(error.code).toBe('configuration');
  expect(error.message).toContain(MISMATCH);
  expect(error.message).toContain(
    'set the same AGENT_SNAPSHOT_KEY (or sessions.snapshotKey) on every machine',
  );
  expect(error.message).toContain('list a replaced key in previousSnapshotKeys');
  for (const key of keys) {
    expect(error.message).not.toContain(key);
    expect(error.message).not.toContain(keyCheckValue(key));
  }
}

const clients: Redis[] = [];
afterAll(() => {
  for (const client of clients.splice(0)) client.disconnect();
});

let prefixes = 0;
/** A fresh prefix on the file's redis-server, and how to open a store there and read its check. */
async function redisPlace() {
  const { url } = await sharedRedis();
  const prefix = `key-check-${++prefixes}:`;
  const raw = new Redis(url);
  clients.push(raw);
  return {
    url,
    open: (snapshotKeys?: SnapshotKeys, env?: Record<string, string>) =>
      openRedisSessionStore({
        url,
        ttlMs: 60_000,
        prefix,
        timeoutMs: 15_000,
        ...(snapshotKeys === undefined ? {} : { snapshotKeys }),
        ...(env === undefined ? {} : { env }),
      }),
    check: () => raw.get(`${prefix}#key-check`),
  };
}

describe('redis: the store checks the key of each process that opens it', () => {
  test('two processes with the same key open it and read each other’s sessions', async () => {
    const place = await redisPlace();
    const first = await place.open({ current: KEY_A });
    const second = await place.open({ current: KEY_A });
    try {
      await first.save(testSnapshot('s-shared'));
      expect((await second.load('s-shared'))?.turn).toBe(3);
      // What the store keeps identifies the key without being it.
      const check = await place.check();
      expect(check).toBe(keyCheckValue(KEY_A));
      expect(check).not.toContain(KEY_A);
    } finally {
      await first.close();
      await second.close();
    }
  });

  test('a process with another key fails at open, naming where its key came from and never a key', async () => {
    const place = await redisPlace();
    const first = await place.open({ current: KEY_A });
    await first.save(testSnapshot('s-a'));
    await first.close();

    const viaEnv = await openFailure(place.open(undefined, { AGENT_SNAPSHOT_KEY: KEY_B }));
    expectSafeMismatch(viaEnv, KEY_A, KEY_B);
    expect(viaEnv.message).toMatch(/^session store redis:\/\/127\.0\.0\.1:\d+: /);
    expect(viaEnv.message).toContain('(key from AGENT_SNAPSHOT_KEY)');

    // No key set: the generated key file of this machine's state directory is named.
    const state = tempDir();
    const viaFile = await openFailure(place.open(undefined, { XDG_STATE_HOME: state }));
    expectSafeMismatch(viaFile, KEY_A);
    expect(viaFile.message).toContain(`(key from the key file ${join(state, 'agent', 'snapshot.key')})`);

    // The refused processes changed nothing: the first key's check and sessions stay.
    expect(await place.check()).toBe(keyCheckValue(KEY_A));
    const again = await place.open({ current: KEY_A });
    expect((await again.load('s-a'))?.turn).toBe(3);
    await again.close();
  });

  test('sessions.snapshotKey of a config is named as the source', async () => {
    const place = await redisPlace();
    // openSessionStore writes under the default prefix: this file's redis-server is its own.
    const first = await openSessionStore({ store: 'redis', url: place.url, snapshotKey: KEY_A });
    await first.close();
    const error = await openFailure(openSessionStore({ store: 'redis', url: place.url, snapshotKey: KEY_B }));
    expectSafeMismatch(error, KEY_A, KEY_B);
    expect(error.message).toContain('(key from sessions.snapshotKey)');
    expect(error.message).toContain('delete the Redis key agent:session:#key-check');
  });

  test('rotation: a new key with the old one in previous keys opens and takes the check over; the old key alone is then refused', async () => {
    const place = await redisPlace();
    const old = await place.open({ current: KEY_A });
    await old.save(testSnapshot('s-old'));
    await old.close();

    const rotated = await place.open({ current: KEY_B, previous: [KEY_A] });
    expect((await rotated.load('s-old'))?.turn).toBe(3);
    await rotated.close();
    expect(await place.check()).toBe(keyCheckValue(KEY_B));

    expectSafeMismatch(await openFailure(place.open({ current: KEY_A })), KEY_A, KEY_B);
    // The new key alone still opens (its check is the store's now).
    const onlyNew = await place.open({ current: KEY_B });
    await onlyNew.close();
  });

  test('two processes with different keys opening an empty store at once: exactly one opens', async () => {
    const place = await redisPlace();
    const outcomes = await Promise.allSettled([
      place.open({ current: KEY_A }),
      place.open({ current: KEY_B }),
    ]);
    const opened = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(opened).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expectSafeMismatch((refused[0] as PromiseRejectedResult).reason as AgentError, KEY_A, KEY_B);
    await (opened[0] as PromiseFulfilledResult<SessionStore>).value.close();
  });
});

describe('sqlite: processes sharing one file must share its key', () => {
  test('same key opens; another key fails at open; rotation takes the check over', async () => {
    const path = join(tempDir(), 'sessions.sqlite');
    const open = (snapshotKeys: SnapshotKeys) =>
      openSqliteSessionStore({ path, ttlMs: 60_000, snapshotKeys });
    const first = await open({ current: KEY_A });
    await first.save(testSnapshot('s-file'));
    const second = await open({ current: KEY_A });
    expect((await second.load('s-file'))?.turn).toBe(3);
    await second.close();

    const error = await openFailure(
      open({ current: KEY_B, source: 'sessions.snapshotKey of /etc/agent.json' }),
    );
    expectSafeMismatch(error, KEY_A, KEY_B);
    expect(error.message).toContain(`session store ${path}: `);
    expect(error.message).toContain('(key from sessions.snapshotKey of /etc/agent.json)');
    expect(error.message).toContain("delete the row 'key-check' of its table store_meta");
    // The first process goes on with its store.
    expect((await first.load('s-file'))?.turn).toBe(3);
    await first.close();

    const rotated = await open({ current: KEY_B, previous: [KEY_A] });
    expect((await rotated.load('s-file'))?.turn).toBe(3);
    await rotated.close();
    const db = new Database(path, { readonly: true });
    const row = db.prepare("SELECT value FROM store_meta WHERE name = 'key-check'").get() as {
      value: string;
    };
    db.close();
    expect(row.value).toBe(keyCheckValue(KEY_B));
    expectSafeMismatch(await openFailure(open({ current: KEY_A })), KEY_A, KEY_B);
  });
});
