import { Command } from 'ioredis';
import { isCluster, type QueueRedis } from './connection.js';

/** How long a write waits for a replica's acknowledgement, ms (then it goes on unconfirmed). */
const REPLICA_WAIT_MS = 2000;

/**
 * On a Redis Cluster, waits until a replica of the master holding `key` has every write this
 * connection sent to that master (`WAIT 1`): a master SIGKILLed after answering a write may not
 * have passed it on, and the replica promoted in its place would not have it. Redis replicates
 * asynchronously; this turns the writes that must survive a failover (an enqueued job, a run's
 * result) into writes a promoted replica has. Nothing to wait for on one server, or when that
 * master has no replica right now (after a failover, until a replica joins the new master).
 * Resolves with how many replicas acknowledged (`undefined`: not waited); rejects when the
 * master went away before answering (the caller writes again).
 */
export async function awaitReplica(redis: QueueRedis, key: string): Promise<number | undefined> {
  if (!isCluster(redis)) return undefined;
  const slot = new Command('exists', [key]).getSlot();
  const replicas = slot === null ? 0 : (redis.slots[slot]?.length ?? 1) - 1;
  if (replicas < 1) return undefined;
  // A pipeline goes to the key's master over the connection the writes took, so WAIT counts them.
  const replies = await redis.pipeline().exists(key).call('wait', '1', String(REPLICA_WAIT_MS)).exec();
  const failed = replies?.find(([error]) => error !== null)?.[0];
  if (failed) throw failed;
  return Number(replies?.[1]?.[1] ?? 0);
}
