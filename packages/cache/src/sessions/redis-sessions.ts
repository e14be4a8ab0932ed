import type { ConversationExchange, SessionSnapshot, SessionStore } from '@agent/protocol';
import type { Redis as RedisClient, RedisOptions } from 'ioredis';
import { SessionStoreError } from '../errors.js';
import { isRedisUrl, redactRedisText, redactRedisUrl } from '../redis-url.js';
import {
  checkConversationId,
  conversationKeepFor,
  decodeExchange,
  encodeExchange,
  MAX_CONVERSATION_BYTES,
  MAX_CONVERSATION_EXCHANGES,
} from './conversation-records.js';
import { checkSessionId, decodeSnapshot, encodeSnapshot, keepFor } from './session-records.js';

/**
 * Appends one exchange to a conversation's list and trims it to the bounds (count, then bytes,
 * oldest first, the newest always kept) in one atomic step on the server.
 */
const APPEND_EXCHANGE = `
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
local items = redis.call('LRANGE', KEYS[1], 0, -1)
local total = 0
for i = 1, #items do total = total + string.len(items[i]) end
local i = 1
while total > tonumber(ARGV[3]) and i < #items do
  total = total - string.len(items[i])
  redis.call('LPOP', KEYS[1])
  i = i + 1
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return #items - i + 1
`;

export interface RedisSessionStoreOptions {
  /** `redis://[:password@]host[:port][/db]` or `rediss://...` (TLS). */
  url: string;
  /** How long a finished session is kept, ms (Redis expires it). */
  ttlMs: number;
  /** Prefix of the keys, so several deployments can share a server; default `agent:session:`. */
  prefix?: string;
  /** Prefix of the conversation keys; default `agent:conversation:`. */
  conversationPrefix?: string;
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
  const conversationPrefix = options.conversationPrefix ?? 'agent:conversation:';
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
    async loadConversation(conversationId: string) {
      const id = checkConversationId(conversationId);
      const items = await run(`reading conversation ${id}`, () =>
        client.lrange(conversationPrefix + id, 0, -1),
      );
      return items.map((text) => decodeExchange(text, id, where));
    },
    async appendExchange(conversationId: string, exchange: ConversationExchange) {
      const id = checkConversationId(conversationId);
      const text = encodeExchange(id, exchange, where);
      await run(`adding to conversation ${id}`, () =>
        client.eval(
          APPEND_EXCHANGE,
          1,
          conversationPrefix + id,
          text,
          MAX_CONVERSATION_EXCHANGES,
          MAX_CONVERSATION_BYTES,
          conversationKeepFor(options.ttlMs),
        ),
      );
    },
    async deleteConversation(conversationId: string) {
      const id = checkConversationId(conversationId);
      return (await run(`deleting conversation ${id}`, () => client.del(conversationPrefix + id))) > 0;
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
