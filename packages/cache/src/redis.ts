// `@agent/cache/redis`: the Redis Cluster helpers the cache's stores use, for other packages on
// the same Redis (the run queue) so a cluster is handled one way.
export {
  clusterSlot,
  isCluster,
  type RedisClient,
  redisClusterOptions,
  replicasConfirming,
  waitForReplica,
} from './redis-cluster.js';
