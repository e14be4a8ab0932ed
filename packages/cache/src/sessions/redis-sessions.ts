import type { SessionSnapshot, SessionStore } from '@agent/protocol';
import type { Redis as RedisClient, RedisOptions } from 'ioredis';
import { SessionStoreError } from '../errors.js';
import { isRedisUrl, redactRedisText, redactRedisUrl } from '../redis-url.js';
import { checkSessionId, decodeSnapshot, encodeSnapshot, keepFor } from './session-records.js';

export interface RedisSessionStoreOptions {
  /** `redis://[:password@]host[:port][/db]` or `rediss://...` (TLS). */
  url: string;
  /** How long a finished session is kept, ms (Redis expires it). */
  ttlMs: number;
  /** Prefix of the keys, so several deployments can share a server; default `agent:session:`. */
  prefix?: string;
  /** Bound on connecting and on each command, ms (default 2000): a server that is down fails fast. */
  timeoutMs?: number;
}

/**
 * Session snapshots on a Redis server through `ioredis`, for sessions that move between
 * machines: one string key per session, replaced whole by each `SET` (a reader never sees half
 * a snapshot), expired by Redis itself. The password never appears in its messages.
 */
export async function openRedisSessionStore(options: RedisSessionStoreOptions): Promise<SessionStore> {
  const { url } = options;
  const shown = redactRedisUrl(url);
  const where = `session store ${shown}`;
  if (!isRedisUrl(url)) throw new SessionStoreError(`${shown} is not a redis:// or rediss:// URL`);
  const prefix = options.prefix ?? 'agent:session:';
  const timeoutMs = options.timeoutMs ?? 2000;
  let Redis: new (url: string, options: RedisOptions) => RedisClient;
  try {
    Redis = (await import('ioredis')).Redis;
  } catch (error) {
    throw new SessionStoreError(`${where}: the Redis session store needs ioredis, which did not load`, {
      cause: error,
    });
  }
  const fail = (what: string, error: unknown) =>
    new SessionStoreError(redactRedisText(`${where}: ${what}: ${(error as Error).message}`, url), {
      cause: error,
    });
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  // ioredis prints unhandled 'error' events; a library must not. Commands report failures.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw fail('cannot connect', error);
  }
  const run = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      throw fail(what, error);
    }
  };
  let closed = false;
  return {
    name: 'redis',
    location: shown,
    async save(snapshot: SessionSnapshot) {
      const text = encodeSnapshot(snapshot, where);
      const id = snapshot.sessionId;
      await run(`saving session ${id}`, () =>
        client.set(prefix + id, text, 'PX', keepFor(snapshot, options.ttlMs)),
      );
    },
    async load(sessionId: string) {
      const id = checkSessionId(sessionId);
      const text = await run(`reading session ${id}`, () => client.get(prefix + id));
      return text === null ? undefined : decodeSnapshot(text, id, where);
    },
    async delete(sessionId: string) {
      const id = checkSessionId(sessionId);
      return (await run(`deleting session ${id}`, () => client.del(prefix + id))) > 0;
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    },
  };
}
