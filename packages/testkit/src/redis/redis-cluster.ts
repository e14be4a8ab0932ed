import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../free-port.js';
import { redisCli } from './redis-cli.js';
import { type ClusterView, readClusterView } from './redis-cluster-view.js';
import {
  type Launched,
  launchRedis,
  onFreshDir,
  type RedisLaunchOptions,
  unavailable,
} from './redis-process.js';

export interface RedisClusterOptions extends RedisLaunchOptions {
  /** Masters, each serving a share of the 16384 slots (default 3, at least 3: Redis's own minimum). */
  masters?: number;
  /** Replicas of each master, promoted when it fails (default 1). */
  replicasPerMaster?: number;
  /** Sets `requirepass` (and `masterauth`) on every node; the URL carries it. */
  password?: string;
  /** `cluster-node-timeout`, ms: how soon a silent master is judged failed (default 3000: a loaded test machine must not starve a node into a failover nobody asked for). */
  nodeTimeoutMs?: number;
  /** How long the cluster may take to form, or to fail over, ms (default 30000). */
  readyTimeoutMs?: number;
}

/** One node of the cluster. */
export interface RedisClusterNode {
  readonly port: number;
  /** `redis://[:password@]127.0.0.1:PORT`: this node alone (its keys only). */
  readonly url: string;
  /** False once `killMaster` killed it or the cluster was closed. */
  readonly alive: boolean;
}

export interface RedisCluster {
  /** `redis+cluster://[:password@]127.0.0.1:PORT?node=127.0.0.1:PORT&...`: every node as a seed. */
  readonly url: string;
  readonly nodes: readonly RedisClusterNode[];
  /** The node serving `key`'s hash slot now (a master). */
  masterFor(key: string): Promise<RedisClusterNode>;
  /** Kills (SIGKILL) the master serving `key`'s hash slot, as a crash would; returns it. */
  killMaster(key: string): Promise<RedisClusterNode>;
  /**
   * Waits until no killed node serves a slot any more (a replica was promoted in its place) and
   * every live node says `cluster_state:ok`; throws when that takes over `readyTimeoutMs`.
   */
  waitForFailover(options?: { timeoutMs?: number }): Promise<void>;
  /** Stops every node and removes their directories; idempotent. */
  close(): Promise<void>;
}

interface RunningNode extends RedisClusterNode {
  alive: boolean;
  readonly dir: string;
  readonly process: Launched;
}

/** How often the cluster's state is polled while waiting, ms. */
const POLL_MS = 100;

/**
 * Starts a real Redis Cluster on loopback: `masters × (1 + replicasPerMaster)` `redis-server
 * --cluster-enabled yes` processes on free ports, joined by `redis-cli --cluster create`, ready
 * when every node says `cluster_state:ok` and every replica is in sync. Every node is stopped by
 * `close()` and when this process exits; their directories are removed. Throws an `AgentError`
 * (`redis_server_unavailable`) when redis-server or redis-cli is missing or the cluster does not form.
 */
export async function startRedisCluster(options: RedisClusterOptions = {}): Promise<RedisCluster> {
  const masters = options.masters ?? 3;
  const replicas = options.replicasPerMaster ?? 1;
  if (!Number.isInteger(masters) || masters < 3 || !Number.isInteger(replicas) || replicas < 0) {
    throw unavailable(
      `a Redis Cluster needs at least 3 masters and 0 or more replicas each, got ${masters} and ${replicas}`,
    );
  }
  const nodes: RunningNode[] = [];
  const removeDirs = () => {
    for (const node of nodes) rmSync(node.dir, { recursive: true, force: true });
  };
  process.once('exit', removeDirs);
  const close = async () => {
    await Promise.all(nodes.map((node) => node.process.stop()));
    for (const node of nodes) node.alive = false;
    removeDirs();
    process.removeListener('exit', removeDirs);
  };
  try {
    // Started together; each one started is recorded at once, so a failure stops the others.
    const starting = Array.from({ length: masters * (1 + replicas) }, () =>
      startNode(options).then((node) => {
        nodes.push(node);
        return node;
      }),
    );
    const settled = await Promise.allSettled(starting);
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const ports = nodes.map((node) => `127.0.0.1:${node.port}`);
    await redisCli(
      nodes[0]!.port,
      ['--cluster', 'create', ...ports, '--cluster-replicas', String(replicas), '--cluster-yes'],
      { password: options.password, timeoutMs: options.readyTimeoutMs ?? 30_000 },
    );
    await waitUntil(options.readyTimeoutMs ?? 30_000, 'the cluster to form', () =>
      formed(nodes, options.password),
    );
  } catch (error) {
    await close();
    throw error;
  }
  return clusterOf(nodes, options, close);
}

function clusterOf(
  nodes: RunningNode[],
  options: RedisClusterOptions,
  close: () => Promise<void>,
): RedisCluster {
  const auth = options.password === undefined ? '' : `:${encodeURIComponent(options.password)}@`;
  const [first, ...others] = nodes;
  const seeds = others.map((node) => `node=127.0.0.1:${node.port}`).join('&');
  const killedIds = new Set<string>();
  let closing: Promise<void> | undefined;
  const view = async (): Promise<ClusterView> => {
    const live = nodes.find((node) => node.alive);
    if (live === undefined) throw unavailable('every node of the cluster is down');
    return readClusterView(live.port, options.password);
  };
  const masterFor = async (key: string): Promise<RunningNode> => {
    const current = await view();
    const slot = await current.slotOf(key);
    const port = current.masterPortOf(slot);
    const node = nodes.find((candidate) => candidate.port === port);
    if (node === undefined) throw unavailable(`no node of this cluster serves slot ${slot} of ${key}`);
    return node;
  };
  return {
    url: `redis+cluster://${auth}127.0.0.1:${first!.port}${seeds === '' ? '' : `?${seeds}`}`,
    nodes,
    masterFor,
    async killMaster(key) {
      const node = await masterFor(key);
      killedIds.add((await view()).idOf(node.port));
      await node.process.kill();
      node.alive = false;
      return node;
    },
    waitForFailover(wait = {}) {
      return waitUntil(wait.timeoutMs ?? options.readyTimeoutMs ?? 30_000, 'a replica to take over', () =>
        failedOver(nodes, killedIds, options.password),
      );
    },
    close() {
      closing ??= close();
      return closing;
    },
  };
}

/** One cluster node on two free ports (clients, cluster bus) in a directory of its own. */
function startNode(options: RedisClusterOptions): Promise<RunningNode> {
  return onFreshDir('testkit-redis-cluster-', async (dir) => {
    const [port, busPort] = [await freePort(), await freePort()];
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
    ];
    args.push('--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf');
    args.push(
      '--cluster-port',
      String(busPort),
      '--cluster-node-timeout',
      String(options.nodeTimeoutMs ?? 3000),
    );
    if (options.password !== undefined)
      args.push('--requirepass', options.password, '--masterauth', options.password);
    const running = await launchRedis(args, options);
    const auth = options.password === undefined ? '' : `:${encodeURIComponent(options.password)}@`;
    return { port, url: `redis://${auth}127.0.0.1:${port}`, alive: true, dir, process: running };
  });
}

/** Every node says `cluster_state:ok` and every replica's link to its master is up. */
async function formed(nodes: RunningNode[], password: string | undefined): Promise<boolean> {
  for (const node of nodes) {
    if (!(await clusterOk(node.port, password))) return false;
    const replication = await redisCli(node.port, ['info', 'replication'], { password });
    if (/role:slave/.test(replication) && !/master_link_status:up/.test(replication)) return false;
  }
  return true;
}

/** No killed node serves a slot and every live node says `cluster_state:ok`. */
async function failedOver(
  nodes: RunningNode[],
  killedIds: ReadonlySet<string>,
  password: string | undefined,
): Promise<boolean> {
  for (const node of nodes.filter((candidate) => candidate.alive)) {
    if (!(await clusterOk(node.port, password))) return false;
    const view = await readClusterView(node.port, password);
    if (!view.coversAllSlots(killedIds)) return false;
  }
  return true;
}

async function clusterOk(port: number, password: string | undefined): Promise<boolean> {
  return /cluster_state:ok/.test(await redisCli(port, ['cluster', 'info'], { password }));
}

/** Polls `check` every `POLL_MS` until it is true; throws after `timeoutMs`. */
async function waitUntil(timeoutMs: number, what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw unavailable(`waited ${timeoutMs} ms for ${what}`);
    await sleep(POLL_MS);
  }
}
