export { createMemoryBackend } from './backends/memory.js';
export { openRedisBackend, type RedisBackendOptions } from './backends/redis.js';
export { openSqliteBackend, type SqliteBackendOptions } from './backends/sqlite.js';
export {
  type Cache,
  type CacheHitEntry,
  type CacheOptions,
  type CacheSetOutcome,
  createCache,
  DEFAULT_MAX_ENTRIES,
  DEFAULT_MAX_VALUE_BYTES,
} from './cache.js';
export {
  CACHE_ERROR_CODE,
  CACHE_VALUE_ERROR_CODE,
  CacheError,
  SESSION_STORE_ERROR_CODE,
  SessionStoreError,
  SNAPSHOT_TAMPERED_CODE,
  SnapshotIntegrityError,
} from './errors.js';
export { cacheKey, stableStringify } from './key.js';
export {
  CACHE_BACKENDS,
  CACHE_FILE_NAME,
  type CacheStoreConfig,
  cacheConfigProblems,
  defaultCachePath,
  openCacheBackend,
} from './open.js';
export {
  isRedisClusterUrl,
  isRedisUrl,
  MAX_CLUSTER_SEEDS,
  REDIS_URL_ALLOWED,
  type RedisNode,
  redactRedisUrl,
  redisClusterNodes,
  redisUrlSecrets,
} from './redis-url.js';
export {
  CONVERSATION_ID_ALLOWED,
  checkConversationId,
  MAX_CONVERSATION_BYTES,
  MAX_CONVERSATION_EXCHANGES,
} from './sessions/conversation-records.js';
export { MAX_JOURNAL_BYTES, MAX_JOURNAL_ENTRIES } from './sessions/journal-records.js';
export {
  defaultSessionsPath,
  openSessionStore,
  SESSION_STORES,
  SESSIONS_FILE_NAME,
  type SessionStoreConfig,
  sessionStoreConfigProblems,
} from './sessions/open-sessions.js';
export { openRedisSessionStore, type RedisSessionStoreOptions } from './sessions/redis-sessions.js';
export {
  canSealSnapshots,
  MAX_LISTED_SKIPS,
  type SealingSessionStore,
  type SealReport,
  type SnapshotSealing,
  type UnsealedSkip,
} from './sessions/seal-unsealed.js';
export {
  checkSessionId,
  DEFAULT_SESSION_TTL_MS,
  MAX_SNAPSHOT_BYTES,
  UNFINISHED_SESSION_TTL_MS,
} from './sessions/session-records.js';
export {
  MIN_SNAPSHOT_KEY_LENGTH,
  PREVIOUS_SNAPSHOT_KEYS_ENV,
  resolveSnapshotKeys,
  SNAPSHOT_KEY_ENV,
  SNAPSHOT_KEY_FILE,
  type SnapshotKeySettings,
  stateSnapshotKeyFile,
} from './sessions/snapshot-keys.js';
export type { SnapshotKeys } from './sessions/snapshot-seal.js';
export { openSqliteSessionStore, type SqliteSessionStoreOptions } from './sessions/sqlite-sessions.js';
export { formatTtl, MAX_TTL_MS, parseTtl, TTL_ALLOWED } from './ttl.js';
export type { CacheBackend, CacheBackendName, StoredEntry } from './types.js';
