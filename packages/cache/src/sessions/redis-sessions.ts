import type { ConversationExchange, SessionSnapshot, TurnJournalEntry } from '@agent/protocol';
import type { ChainableCommander } from 'ioredis';
import { SessionStoreError } from '../errors.js';
import { connectRedisClient, quitRedis, redisCommand } from '../redis-client.js';
import { isCluster, type RedisClient, waitForReplica } from '../redis-cluster.js';
import { isRedisUrl, REDIS_URL_ALLOWED, redactRedisText, redactRedisUrl } from '../redis-url.js';
import {
  checkConversationId,
  conversationKeepFor,
  decodeExchange,
  encodeExchange,
  MAX_CONVERSATION_BYTES,
  MAX_CONVERSATION_EXCHANGES,
} from './conversation-records.js';
import { checkRedisStoreKey } from './key-check.js';
import { RedisJournal } from './redis-journal.js';
import { sealUnsealedRedis } from './redis-seal.js';
import { type SessionKeyLayout, sessionKeyLayout } from './redis-session-keys.js';
import type { SealingSessionStore, SealReport } from './seal-unsealed.js';
import { checkSessionId, decodeSnapshot, encodeSnapshot, keepFor } from './session-records.js';
import { stateSnapshotKeyFile, storeKeys } from './snapshot-keys.js';
import type { SnapshotKeys } from './snapshot-seal.js';

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

const DEFAULT_PREFIX = 'agent:session:';

export interface RedisSessionStoreOptions {
  /** `redis://[:password@]host[:port][/db]`, `rediss://...` (TLS), or a cluster's `redis+cluster://...`. */
  url: string;
  /** How long a finished session is kept, ms (Redis expires it). */
  ttlMs: number;
  /** Prefix of the keys, so several deployments can share a server; default `agent:session:`. */
  prefix?: string;
  /** Prefix of the conversation keys; default `agent:conversation:`. */
  conversationPrefix?: string;
  /** Bound on connecting and on each command, ms (default 2000): a server that is down fails fast. */
  timeoutMs?: number;
  /**
   * The keys snapshots are sealed with (HMAC-SHA-256): `current` writes, `previous` still read.
   * Default: `AGENT_SNAPSHOT_KEY` / `AGENT_SNAPSHOT_PREVIOUS_KEYS` of `env`, else the key file
   * (`snapshot.key`, made mode 0600 when missing) in the state directory (`defaultSessionsPath`'s; a fleet of machines sets one key for all).
   */
  snapshotKeys?: SnapshotKeys;
  /** Where `AGENT_SNAPSHOT_KEY` and the state directory are read (default `process.env`). */
  env?: Record<string, string | undefined>;
}

/**
 * Session snapshots on a Redis server or a Redis Cluster through `ioredis`, for sessions that
 * move between machines: one string key per session (`sessionKeyLayout`), replaced whole by
 * each `SET` (a reader never sees half a snapshot), expired by Redis itself. On a cluster each
 * write returns once a replica has it (`waitForReplica`). The password never appears in its messages.
 */
export async function openRedisSessionStore(options: RedisSessionStoreOptions): Promise<SealingSessionStore> {
  const { url } = options;
  const shown = redactRedisUrl(url);
  if (!isRedisUrl(url))
    throw new SessionStoreError(`${shown} is not a Redis URL; allowed: ${REDIS_URL_ALLOWED}`);
  const where = `session store ${shown}`;
  const keys = await storeKeys(options.snapshotKeys, options.env, stateSnapshotKeyFile(options.env));
  const fail = (what: string, error: unknown) =>
    new SessionStoreError(redactRedisText(`${where}: ${what}: ${(error as Error).message}`, url), {
      cause: error,
    });
  const client = await connectRedisClient(url, options.timeoutMs ?? 2000, {
    fail,
    notLoaded: (error) =>
      new SessionStoreError(`${where}: the Redis session store needs ioredis, which did not load`, {
        cause: error,
      }),
  });
  // A fleet whose machines seal with different keys fails here, not session by session later.
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  try {
    await checkRedisStoreKey(client, { prefix, where, keys }, (what, command) =>
      redisCommand(fail, what, command),
    );
  } catch (error) {
    await quitRedis(client);
    throw error;
  }
  return new RedisSessionStore(client, options, { shown, where, fail }, keys);
}

class RedisSessionStore implements SealingSessionStore {
  readonly name = 'redis';
  readonly location: string;
  private readonly prefix: string;
  private readonly layout: SessionKeyLayout;
  private readonly conversationPrefix: string;
  private readonly timeoutMs: number;
  private readonly ttlMs: number;
  private readonly where: string;
  private readonly fail: (what: string, error: unknown) => SessionStoreError;
  private readonly journal: RedisJournal;
  private closed = false;

  constructor(
    private readonly client: RedisClient,
    options: RedisSessionStoreOptions,
    names: { shown: string; where: string; fail: (what: string, error: unknown) => SessionStoreError },
    private readonly keys: SnapshotKeys,
  ) {
    this.location = names.shown;
    this.where = names.where;
    this.fail = names.fail;
    this.prefix = options.prefix ?? DEFAULT_PREFIX;
    this.layout = sessionKeyLayout(this.prefix, isCluster(client));
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.conversationPrefix = options.conversationPrefix ?? 'agent:conversation:';
    this.ttlMs = options.ttlMs;
    this.journal = new RedisJournal(client, {
      layout: this.layout,
      replicate: (key) => this.replicate(key),
      where: this.where,
      keys,
      ttlMs: this.ttlMs,
      run: (what, command) => this.run(what, command),
    });
  }

  async save(snapshot: SessionSnapshot): Promise<void> {
    const text = encodeSnapshot(snapshot, this.where, this.keys);
    const id = snapshot.sessionId;
    // The snapshot covers the turns journaled before it: the journal goes in the same MULTI.
    const key = this.layout.snapshot(id);
    const multi = this.client.multi().set(key, text, 'PX', keepFor(snapshot, this.ttlMs));
    await this.run(`saving session ${id}`, async () => {
      await execAll(this.journal.dropIn(multi, id));
      await this.replicate(key);
    });
  }

  async load(sessionId: string): Promise<SessionSnapshot | undefined> {
    const id = checkSessionId(sessionId);
    const text = await this.run(`reading session ${id}`, () => this.client.get(this.layout.snapshot(id)));
    return text === null ? undefined : decodeSnapshot(text, id, this.where, this.keys);
  }

  async delete(sessionId: string): Promise<boolean> {
    const id = checkSessionId(sessionId);
    const key = this.layout.snapshot(id);
    const multi = this.journal.dropIn(this.client.multi().del(key), id);
    const [snapshots, journals] = await this.run(`deleting session ${id}`, async () => {
      const replies = await execAll(multi);
      await this.replicate(key);
      return replies;
    });
    return (snapshots as number) + (journals as number) > 0;
  }

  appendJournal(entry: TurnJournalEntry): Promise<void> {
    return this.journal.append(entry);
  }

  async loadJournal(sessionId: string): Promise<TurnJournalEntry[]> {
    return this.journal.load(checkSessionId(sessionId));
  }

  /** Seals the untagged version 1 snapshots under its prefix (`sealUnsealedRedis`). */
  sealUnsealedSnapshots(): Promise<SealReport> {
    return sealUnsealedRedis(this.client, {
      prefix: this.prefix,
      layout: this.layout,
      keys: this.keys,
      run: (what, command) => this.run(what, command),
    });
  }

  async loadConversation(conversationId: string): Promise<ConversationExchange[]> {
    const id = checkConversationId(conversationId);
    const items = await this.run(`reading conversation ${id}`, () =>
      this.client.lrange(this.conversationPrefix + id, 0, -1),
    );
    return items.map((text) => decodeExchange(text, id, this.where));
  }

  async appendExchange(conversationId: string, exchange: ConversationExchange): Promise<void> {
    const id = checkConversationId(conversationId);
    const text = encodeExchange(id, exchange, this.where);
    const key = this.conversationPrefix + id;
    await this.run(`adding to conversation ${id}`, async () => {
      await this.client.eval(
        APPEND_EXCHANGE,
        1,
        key,
        text,
        MAX_CONVERSATION_EXCHANGES,
        MAX_CONVERSATION_BYTES,
        conversationKeepFor(this.ttlMs),
      );
      await this.replicate(key);
    });
  }

  async deleteConversation(conversationId: string): Promise<boolean> {
    const id = checkConversationId(conversationId);
    return (
      (await this.run(`deleting conversation ${id}`, () => this.client.del(this.conversationPrefix + id))) > 0
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await quitRedis(this.client);
  }

  /** On a cluster with replicas, waits until a replica has the write to `key` (`waitForReplica`). */
  private replicate(key: string): Promise<void> {
    return waitForReplica(this.client, key, this.timeoutMs);
  }

  private run<T>(what: string, command: () => Promise<T>): Promise<T> {
    return redisCommand(this.fail, what, command);
  }
}

/** Runs a MULTI (its commands applied together, none between them); a command that failed fails it. */
async function execAll(multi: ChainableCommander): Promise<unknown[]> {
  const replies = await multi.exec();
  if (replies === null) throw new Error('the transaction was aborted');
  for (const [error] of replies) if (error !== null) throw error;
  return replies.map(([, value]) => value);
}
