import { statSync } from 'node:fs';
import { join } from 'node:path';
import {
  ConfigError,
  type ConversationExchange,
  type SessionSnapshot,
  type SessionStore,
} from '@agent/protocol';
import { startRedisServer } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import {
  defaultSessionsPath,
  MAX_CONVERSATION_BYTES,
  MAX_CONVERSATION_EXCHANGES,
  MAX_SNAPSHOT_BYTES,
  openRedisSessionStore,
  openSessionStore,
  openSqliteSessionStore,
  SessionStoreError,
  sessionStoreConfigProblems,
} from '../src/index.js';
import { sharedCluster, sharedRedis, tempDir } from './helpers.js';

const DAY = 24 * 60 * 60 * 1000;

function snapshot(sessionId: string, status: SessionSnapshot['status'], turn = 1): SessionSnapshot {
  return {
    version: 1,
    sessionId,
    agent: 'main',
    settingsHash: 'sha256:0123456789abcdef',
    status,
    takenAt: 1,
    turn,
    nonce: 'abcd1234',
    conversation: [{ role: 'user', content: `turn ${turn} of ${sessionId} — ünïcode` }],
    loop: { finalReportFailedEver: false, finalReportAttempts: 0, taskStatusOnlyTurns: 0 },
    droppedTargets: [null],
    tokenCorrection: 1,
    accounting: [],
    opTree: {
      id: 'op-0',
      kind: 'session',
      label: 'main',
      sessionId,
      startedAt: 1,
      status: 'running',
      children: [],
      totals: {
        llmCalls: 0,
        toolCalls: 0,
        inputTokens: 0,
        outputTokens: 0,
        cachedTokens: 0,
        costUsd: 0,
        durationMs: 0,
      },
    },
  };
}

/** The contract every store keeps, run against each. */
function contract(open: () => Promise<SessionStore>) {
  test('save, load the latest, delete; an unknown id is undefined; a bad id is a ConfigError', async () => {
    const store = await open();
    try {
      expect(await store.load('never-was')).toBeUndefined();
      await store.save(snapshot('s-1', 'running', 1));
      await store.save(snapshot('s-1', 'running', 2));
      await store.save(snapshot('s-2', 'awaiting_approval', 5));
      expect((await store.load('s-1'))?.turn).toBe(2);
      expect(await store.load('s-2')).toEqual(snapshot('s-2', 'awaiting_approval', 5));
      expect(await store.delete('s-1')).toBe(true);
      expect(await store.delete('s-1')).toBe(false);
      expect(await store.load('s-1')).toBeUndefined();
      const bad = await store.load('../../etc/passwd').catch((e: unknown) => e);
      expect(bad).toBeInstanceOf(ConfigError);
      expect((bad as Error).message).toContain('is not a session id');
    } finally {
      await store.close();
    }
  });

  test('a snapshot over 32 MiB is refused before anything is written, saying its size and the bound; the earlier one is kept', async () => {
    const store = await open();
    try {
      const earlier = snapshot('big-1', 'running', 1);
      await store.save(earlier);
      const big = snapshot('big-1', 'running', 2);
      big.conversation.push({ role: 'user', content: 'x'.repeat(MAX_SNAPSHOT_BYTES) });
      const refused = await store.save(big).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(SessionStoreError);
      expect((refused as Error).message).toMatch(
        new RegExp(
          `: the snapshot of session big-1 is \\d+ bytes, over the ${MAX_SNAPSHOT_BYTES}-byte bound; it was not stored \\(the earlier one is kept\\)$`,
        ),
      );
      expect((refused as Error).message).toContain(store.location);
      expect(await store.load('big-1')).toEqual(earlier);
    } finally {
      await store.close();
    }
  });

  test('conversations: exchanges come back oldest first, separate per id; delete; a bad id is a ConfigError naming the rule', async () => {
    const store = await open();
    try {
      expect(await store.loadConversation('c-new')).toEqual([]);
      await store.appendExchange('c-1', exchange(1));
      await store.appendExchange('c-2', exchange(9));
      await store.appendExchange('c-1', exchange(2));
      expect(await store.loadConversation('c-1')).toEqual([exchange(1), exchange(2)]);
      expect(await store.loadConversation('c-2')).toEqual([exchange(9)]);
      expect(await store.deleteConversation('c-1')).toBe(true);
      expect(await store.deleteConversation('c-1')).toBe(false);
      expect(await store.loadConversation('c-1')).toEqual([]);
      for (const bad of ['', '../x', 'a b', 'x'.repeat(129), '-leading']) {
        const error = await store.appendExchange(bad, exchange(1)).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as Error).message).toContain('is not a conversation id (1-128 letters, digits');
        expect(await store.loadConversation(bad).catch((e: unknown) => e)).toBeInstanceOf(ConfigError);
      }
    } finally {
      await store.close();
    }
  });

  test('conversations are bounded: the oldest go past the exchange cap and the byte cap; one exchange over the byte cap is refused and nothing is lost', async () => {
    const store = await open();
    try {
      for (let i = 1; i <= MAX_CONVERSATION_EXCHANGES + 3; i++)
        await store.appendExchange('capped', exchange(i));
      const kept = await store.loadConversation('capped');
      expect(kept).toHaveLength(MAX_CONVERSATION_EXCHANGES);
      expect(kept[0]).toEqual(exchange(4));
      expect(kept.at(-1)).toEqual(exchange(MAX_CONVERSATION_EXCHANGES + 3));

      const third = Math.floor(MAX_CONVERSATION_BYTES / 3) - 200;
      for (let i = 1; i <= 4; i++) await store.appendExchange('big', exchange(i, 'r'.repeat(third)));
      const big = await store.loadConversation('big');
      expect(big.map((e) => e.sessionId)).toEqual(['s-2', 's-3', 's-4']);

      const huge = await store
        .appendExchange('big', exchange(5, 'r'.repeat(MAX_CONVERSATION_BYTES)))
        .catch((e: unknown) => e);
      expect(huge).toBeInstanceOf(SessionStoreError);
      expect((huge as Error).message).toContain('it was not stored (the earlier exchanges are kept)');
      expect((await store.loadConversation('big')).map((e) => e.sessionId)).toEqual(['s-2', 's-3', 's-4']);
    } finally {
      await store.close();
    }
  });
}

function exchange(n: number, report = `report ${n} — ünïcode`): ConversationExchange {
  return { prompt: `prompt ${n}`, report, sessionId: `s-${n}`, at: 1000 + n };
}

describe('sqlite session store', () => {
  contract(async () => openSqliteSessionStore({ path: join(tempDir(), 'sessions.sqlite'), ttlMs: DAY }));

  test('the file is made mode 0600 in a 0700 directory; another process (a second open) reads what was saved', async () => {
    const path = join(tempDir(), 'state', 'agent', 'sessions.sqlite');
    const first = await openSqliteSessionStore({ path, ttlMs: DAY });
    await first.save(snapshot('shared', 'running', 3));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    const second = await openSqliteSessionStore({ path, ttlMs: DAY });
    expect((await second.load('shared'))?.turn).toBe(3);
    await first.close();
    await second.close();
    await expect(second.load('shared')).rejects.toThrow(/is closed/);
  });

  test('a finished session expires after the TTL; an unfinished one is kept for 30 days', async () => {
    let now = 1_000_000;
    const store = await openSqliteSessionStore({
      path: join(tempDir(), 's.sqlite'),
      ttlMs: DAY,
      now: () => now,
    });
    await store.save(snapshot('done', 'finished'));
    await store.save(snapshot('paused', 'awaiting_approval'));
    now += DAY + 1;
    expect(await store.load('done')).toBeUndefined();
    expect(await store.load('paused')).toBeDefined();
    now += 30 * DAY;
    expect(await store.load('paused')).toBeUndefined();
    await store.close();
  });

  test('the default file is under $XDG_STATE_HOME/agent, else ~/.local/state/agent', () => {
    expect(defaultSessionsPath({ XDG_STATE_HOME: '/srv/state' })).toBe('/srv/state/agent/sessions.sqlite');
    expect(defaultSessionsPath({})).toMatch(/\/\.local\/state\/agent\/sessions\.sqlite$/);
  });
});

describe('redis session store (a real redis-server)', () => {
  contract(async () => openSessionStore({ store: 'redis', url: (await sharedRedis()).url, ttl: '1d' }));

  test('Redis expires a finished session by the TTL it was given', async () => {
    const server = await sharedRedis();
    const store = await openRedisSessionStore({ url: server.url, ttlMs: 60_000, prefix: 'ttl-test:' });
    await store.save(snapshot('done', 'finished'));
    await store.save(snapshot('open', 'running'));
    const { Redis } = await import('ioredis');
    const raw = new Redis(server.url);
    try {
      const finished = await raw.pttl('ttl-test:done');
      expect(finished).toBeGreaterThan(0);
      expect(finished).toBeLessThanOrEqual(60_000);
      expect(await raw.pttl('ttl-test:open')).toBeGreaterThan(29 * DAY);
      // A value without a tag is refused before it is parsed, never guessed at.
      await raw.set('ttl-test:broken', '{not json');
      await expect(store.load('broken')).rejects.toThrow(
        /stored snapshot of session broken has no integrity tag/,
      );
    } finally {
      raw.disconnect();
      await store.close();
    }
  });

  test('a server that is down: saving and connecting fail with a SessionStoreError that hides the password', async () => {
    const server = await startRedisServer({ password: 'sekrit-pass-42' });
    const store = await openRedisSessionStore({ url: server.url, ttlMs: DAY, timeoutMs: 300 });
    await store.save(snapshot('kept', 'running', 1));
    await server.close();
    const error = await store.save(snapshot('kept', 'running', 2)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionStoreError);
    expect((error as Error).message).toContain('session store redis://:[redacted]@127.0.0.1');
    expect((error as Error).message).toContain('saving session kept');
    expect((error as Error).message).not.toContain('sekrit-pass-42');
    await store.close();
    const refused = await openRedisSessionStore({ url: server.url, ttlMs: DAY, timeoutMs: 300 }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(SessionStoreError);
    expect((refused as Error).message).toContain('cannot connect');
  });
});

describe('redis session store (a real Redis Cluster: 3 masters, a replica each)', () => {
  contract(async () => openSessionStore({ store: 'redis', url: (await sharedCluster()).url, ttl: '1d' }));
});

test('a sessions config that cannot work names each problem', () => {
  const problems = sessionStoreConfigProblems({
    store: 'redis',
    url: 'http://x',
    path: '/tmp/x',
    ttl: 'soon',
    extra: 1,
  });
  expect(problems.map((p) => p.field)).toEqual(['extra', 'url', 'path', 'ttl']);
  expect(sessionStoreConfigProblems({ store: 'mongo' })[0]?.message).toContain('one of sqlite, redis');
  expect(sessionStoreConfigProblems({ url: 'redis://:pw-secret@h:1' })[0]?.message).not.toContain(
    'pw-secret',
  );
  expect(sessionStoreConfigProblems({})).toEqual([]);
});
