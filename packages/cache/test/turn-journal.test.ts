import { join } from 'node:path';
import { ConfigError, type SessionStore, type TurnJournalEntry } from '@agent/protocol';
import Database from 'better-sqlite3';
import { Cluster, Redis } from 'ioredis';
import { afterAll, describe, expect, test } from 'vitest';
import {
  MAX_JOURNAL_BYTES,
  MAX_JOURNAL_ENTRIES,
  openRedisSessionStore,
  openSqliteSessionStore,
  SessionStoreError,
  type SnapshotKeys,
} from '../src/index.js';
import { fakeClock, refusalOf, sharedCluster, sharedRedis, tempDir, testSnapshot } from './helpers.js';

// Issue 37: the turn journal lives beside the snapshot, sealed with the snapshot keys, bounded,
// dropped by the snapshot that covers it and by delete.
const KEY_A = 'key-a-0123456789abcdef0123456789abcdef';
const KEY_B = 'key-b-0123456789abcdef0123456789abcdef';
const TAMPERED = 'session_snapshot_tampered';
const DAY = 24 * 60 * 60 * 1000;

const answer = (sessionId: string, turn: number, text = 'Sending the mail.'): TurnJournalEntry => ({
  kind: 'answer',
  sessionId,
  turn,
  message: {
    role: 'assistant',
    content: text,
    toolCalls: [
      { id: 'call_1', name: 'send_mail', arguments: { to: 'a@example.com' } },
      { id: 'call_2', name: 'charge', arguments: { cents: 500 } },
    ],
  },
});

const outcome = (sessionId: string, turn: number, callId: string, text = 'done'): TurnJournalEntry => ({
  kind: 'tool_outcome',
  sessionId,
  turn,
  callId,
  tool: callId === 'call_1' ? 'send_mail' : 'charge',
  ok: true,
  text,
});

/** A store of one backend, and raw access to the journal it keeps (as someone with the file or the server would). */
interface Backend {
  open(keys?: SnapshotKeys): Promise<SessionStore>;
  entries(id: string): Promise<string[]>;
  replace(id: string, index: number, text: string): Promise<void>;
}

function sqliteBackend(): Backend {
  const path = join(tempDir(), 'sessions.sqlite');
  const db = () => new Database(path);
  return {
    open: (keys = { current: KEY_A }) => openSqliteSessionStore({ path, ttlMs: DAY, snapshotKeys: keys }),
    async entries(id) {
      const handle = db();
      const rows = handle.prepare('SELECT entry FROM journal WHERE session_id = ? ORDER BY seq').all(id);
      handle.close();
      return (rows as { entry: string }[]).map((row) => row.entry);
    },
    async replace(id, index, text) {
      const handle = db();
      handle.prepare('UPDATE journal SET entry = ? WHERE session_id = ? AND seq = ?').run(text, id, index);
      handle.close();
    },
  };
}

const clients: Redis[] = [];
afterAll(() => {
  for (const client of clients.splice(0)) client.disconnect();
});

let prefixes = 0;
async function redisBackend(): Promise<Backend> {
  const { url } = await sharedRedis();
  const prefix = `journal-test-${++prefixes}:`;
  const raw = new Redis(url);
  clients.push(raw);
  return {
    open: (keys = { current: KEY_A }) =>
      openRedisSessionStore({ url, ttlMs: DAY, prefix, snapshotKeys: keys, timeoutMs: 15_000 }),
    entries: (id) => raw.lrange(`${prefix}${id}#journal`, 0, -1),
    async replace(id, index, text) {
      await raw.lset(`${prefix}${id}#journal`, index, text);
    },
  };
}

async function clusterBackend(): Promise<Backend> {
  const { url, nodes } = await sharedCluster();
  const prefix = `journal-test-${++prefixes}:`;
  const raw = new Cluster(nodes.map(({ port }) => ({ host: '127.0.0.1', port })));
  clusters.push(raw);
  // On a cluster the session id is the keys' hash tag.
  const list = (id: string) => `${prefix}{${id}}#journal`;
  return {
    open: (keys = { current: KEY_A }) =>
      openRedisSessionStore({ url, ttlMs: DAY, prefix, snapshotKeys: keys, timeoutMs: 15_000 }),
    entries: (id) => raw.lrange(list(id), 0, -1),
    async replace(id, index, text) {
      await raw.lset(list(id), index, text);
    },
  };
}

const clusters: Cluster[] = [];
afterAll(async () => {
  for (const client of clusters.splice(0)) await client.quit();
});

/** Changes one byte of a stored entry's JSON: the outcome's text `done` becomes `dona`. */
const editOneByte = (text: string) => {
  expect(text).toContain('"text":"done"');
  return text.replace('"text":"done"', '"text":"dona"');
};

function journalContract(backend: () => Promise<Backend>) {
  test('entries come back oldest first, per session; parallel appends are all kept; an unknown session has none', async () => {
    const store = await (await backend()).open();
    try {
      expect(await store.loadJournal!('s-none')).toEqual([]);
      await store.appendJournal!(answer('s-1', 4));
      await store.appendJournal!(answer('s-2', 1, 'Other session.'));
      // Parallel tool calls finish at once: both outcomes are kept, in the order they were appended.
      await Promise.all([
        store.appendJournal!(outcome('s-1', 4, 'call_1')),
        store.appendJournal!(outcome('s-1', 4, 'call_2')),
      ]);
      expect(await store.loadJournal!('s-1')).toEqual([
        answer('s-1', 4),
        outcome('s-1', 4, 'call_1'),
        outcome('s-1', 4, 'call_2'),
      ]);
      expect(await store.loadJournal!('s-2')).toEqual([answer('s-2', 1, 'Other session.')]);
    } finally {
      await store.close();
    }
  });

  test('an entry for an id no session can have is a ConfigError; an unknown kind is refused; nothing is written', async () => {
    const store = await (await backend()).open();
    try {
      const bad = await store.appendJournal!(answer('../etc/passwd', 1)).catch((e: unknown) => e);
      expect(bad).toBeInstanceOf(ConfigError);
      expect((bad as Error).message).toContain('is not a session id');
      const odd = { ...outcome('s-odd', 1, 'call_1'), kind: 'rumour' } as unknown as TurnJournalEntry;
      const refused = await store.appendJournal!(odd).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(SessionStoreError);
      expect((refused as Error).message).toContain('kind "rumour"; allowed: "answer" or "tool_outcome"');
      expect(await store.loadJournal!('s-odd')).toEqual([]);
      expect(await store.loadJournal!('bad id').catch((e: unknown) => e)).toBeInstanceOf(ConfigError);
    } finally {
      await store.close();
    }
  });

  test('a snapshot written drops its session journal (the next turn starts a new one); delete drops it too', async () => {
    const store = await (await backend()).open();
    try {
      await store.appendJournal!(answer('s-save', 1));
      await store.appendJournal!(outcome('s-save', 1, 'call_1'));
      await store.appendJournal!(answer('s-keep', 1));
      await store.save(testSnapshot('s-save', { turn: 1, status: 'running' }));
      expect(await store.loadJournal!('s-save')).toEqual([]);
      expect(await store.loadJournal!('s-keep')).toEqual([answer('s-keep', 1)]);
      await store.appendJournal!(answer('s-save', 2));
      expect(await store.loadJournal!('s-save')).toEqual([answer('s-save', 2)]);

      await store.appendJournal!(outcome('s-save', 2, 'call_1'));
      expect(await store.delete('s-save')).toBe(true);
      expect(await store.load('s-save')).toBeUndefined();
      expect(await store.loadJournal!('s-save')).toEqual([]);
      // A journal alone (its session's first checkpoint failed) is removed by delete too.
      expect(await store.delete('s-keep')).toBe(true);
      expect(await store.loadJournal!('s-keep')).toEqual([]);
    } finally {
      await store.close();
    }
  });

  test('an entry with one byte changed in the store is refused with the tamper error naming the session; so are moved entries', async () => {
    const raw = await backend();
    const store = await raw.open();
    try {
      await store.appendJournal!(answer('s-edit', 2));
      await store.appendJournal!(outcome('s-edit', 2, 'call_1'));
      const [first, second] = await raw.entries('s-edit');
      await raw.replace('s-edit', 1, editOneByte(second!));
      const edited = await refusalOf(store.loadJournal!('s-edit'));
      expect(edited.code).toBe(TAMPERED);
      expect(edited.message).toContain(
        'entry 1 of the turn journal of session s-edit fails its integrity check',
      );
      expect(edited.message).toContain('the session is not resumed from it');
      expect(edited.message).not.toContain(KEY_A);

      // The two genuine entries swapped: each is sealed with its place.
      await raw.replace('s-edit', 0, second!);
      await raw.replace('s-edit', 1, first!);
      expect((await refusalOf(store.loadJournal!('s-edit'))).message).toContain('it was written as entry 1');

      // A genuine entry of another session put in this one's journal.
      await store.appendJournal!(outcome('s-other', 2, 'call_1'));
      const [foreign] = await raw.entries('s-other');
      await raw.replace('s-edit', 0, first!);
      await raw.replace('s-edit', 1, second!);
      expect(await store.loadJournal!('s-edit')).toHaveLength(2);
      await raw.replace('s-edit', 0, foreign!);
      expect((await refusalOf(store.loadJournal!('s-edit'))).message).toContain(
        'it was written for another session',
      );

      // An entry without a tag is never read.
      await raw.replace('s-edit', 0, JSON.stringify({ journal: 1, seq: 0, entry: answer('s-edit', 2) }));
      expect((await refusalOf(store.loadJournal!('s-edit'))).message).toContain('it has no integrity tag');
    } finally {
      await store.close();
    }
  });

  test('sealed with a rotated key: entries still load; a key no longer configured refuses them', async () => {
    const raw = await backend();
    const old = await raw.open({ current: KEY_A });
    await old.appendJournal!(answer('s-rot', 3));
    await old.close();
    const rotated = await raw.open({ current: KEY_B, previous: [KEY_A] });
    await rotated.appendJournal!(outcome('s-rot', 3, 'call_1'));
    expect(await rotated.loadJournal!('s-rot')).toEqual([answer('s-rot', 3), outcome('s-rot', 3, 'call_1')]);
    await rotated.close();
    // Only the new key: the entry sealed with the old one no longer reads. (A key the store
    // never had is refused at open: store-key-check.test.ts.)
    const other = await raw.open({ current: KEY_B });
    try {
      const error = await refusalOf(other.loadJournal!('s-rot'));
      expect(error.code).toBe(TAMPERED);
      expect(error.message).toContain('matches none of the 1 snapshot key configured');
    } finally {
      await other.close();
    }
  });

  test(`past ${MAX_JOURNAL_ENTRIES} entries or ${MAX_JOURNAL_BYTES} bytes an append is refused, naming the bound; nothing is written`, async () => {
    const raw = await backend();
    const store = await raw.open();
    try {
      for (let i = 0; i < MAX_JOURNAL_ENTRIES; i++)
        await store.appendJournal!(outcome('s-many', 1, `call_${i}`));
      const refused = await store.appendJournal!(outcome('s-many', 1, 'call_x')).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(SessionStoreError);
      expect((refused as Error).message).toContain(
        `the turn journal of session s-many already holds ${MAX_JOURNAL_ENTRIES} entries, the bound is ${MAX_JOURNAL_ENTRIES} entries per session; the entry was not stored`,
      );
      expect(await raw.entries('s-many')).toHaveLength(MAX_JOURNAL_ENTRIES);

      const big = 'b'.repeat(Math.floor(MAX_JOURNAL_BYTES / 3));
      for (let i = 0; i < 2; i++) await store.appendJournal!(outcome('s-big', 1, `call_${i}`, big));
      const tooBig = await store.appendJournal!(outcome('s-big', 1, 'call_9', big)).catch((e: unknown) => e);
      expect(tooBig).toBeInstanceOf(SessionStoreError);
      expect((tooBig as Error).message).toMatch(
        new RegExp(
          `the turn journal of session s-big would reach \\d+ bytes, over the bound of ${MAX_JOURNAL_BYTES} bytes per session; the entry was not stored$`,
        ),
      );
      const kept = await store.loadJournal!('s-big');
      expect(kept.map((entry) => (entry as { callId: string }).callId)).toEqual(['call_0', 'call_1']);
      // A snapshot empties the journal: the next turn has the whole bound again.
      await store.save(testSnapshot('s-big', { turn: 1, status: 'running' }));
      await store.appendJournal!(outcome('s-big', 2, 'call_9', big));
      expect(await store.loadJournal!('s-big')).toHaveLength(1);
    } finally {
      await store.close();
    }
  }, 60_000);
}

describe('sqlite session store: turn journal', () => {
  journalContract(async () => sqliteBackend());

  test('a journal expires with the unfinished-session TTL (30 days), as a whole', async () => {
    const clock = fakeClock();
    const path = join(tempDir(), 's.sqlite');
    const store = await openSqliteSessionStore({
      path,
      ttlMs: DAY,
      now: clock.now,
      snapshotKeys: { current: KEY_A },
    });
    try {
      await store.appendJournal!(answer('s-ttl', 1));
      clock.advance(20 * DAY);
      await store.appendJournal!(outcome('s-ttl', 1, 'call_1'));
      clock.advance(20 * DAY);
      expect(await store.loadJournal!('s-ttl')).toHaveLength(2);
      clock.advance(11 * DAY);
      expect(await store.loadJournal!('s-ttl')).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe('redis session store (a real Redis Cluster): turn journal', () => {
  journalContract(clusterBackend);
});

describe('redis session store (a real redis-server): turn journal', () => {
  journalContract(redisBackend);

  test('Redis expires a journal with the unfinished-session TTL', async () => {
    const { url } = await sharedRedis();
    const store = await openRedisSessionStore({
      url,
      ttlMs: DAY,
      prefix: 'journal-ttl:',
      snapshotKeys: { current: KEY_A },
    });
    const raw = new Redis(url);
    try {
      await store.appendJournal!(answer('s-ttl', 1));
      expect(await raw.pttl('journal-ttl:s-ttl#journal')).toBeGreaterThan(29 * DAY);
      expect(await raw.pttl('journal-ttl:s-ttl#journal-bytes')).toBeGreaterThan(29 * DAY);
    } finally {
      raw.disconnect();
      await store.close();
    }
  });
});
