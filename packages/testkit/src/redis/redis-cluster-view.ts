import { redisCli } from './redis-cli.js';
import { unavailable } from './redis-process.js';

/** Hash slots of a Redis Cluster. */
const SLOTS = 16384;

/** A node as one node's `CLUSTER NODES` lists it. */
interface NodeLine {
  id: string;
  port: number;
  /** A master not flagged failed (`fail` or `fail?`). */
  liveMaster: boolean;
  /** Slot ranges it serves, inclusive. */
  ranges: [number, number][];
}

/** What one node knows of the cluster: who serves which slot. */
export interface ClusterView {
  /** The hash slot of `key`, as the server computes it. */
  slotOf(key: string): Promise<number>;
  /** The port of the live master serving `slot`. */
  masterPortOf(slot: number): number;
  /** The node id of the node on `port`. */
  idOf(port: number): string;
  /** True when every slot is served by a live master that is none of `excluded` (node ids). */
  coversAllSlots(excluded: ReadonlySet<string>): boolean;
}

/** Reads `CLUSTER NODES` from the node on `port`. */
export async function readClusterView(port: number, password: string | undefined): Promise<ClusterView> {
  const lines = parseNodes(await redisCli(port, ['cluster', 'nodes'], { password }));
  const serving = (slot: number) =>
    lines.find((line) => line.liveMaster && line.ranges.some(([from, to]) => slot >= from && slot <= to));
  return {
    async slotOf(key) {
      return Number((await redisCli(port, ['cluster', 'keyslot', key], { password })).trim());
    },
    masterPortOf(slot) {
      const line = serving(slot);
      if (line === undefined) throw unavailable(`no live master serves slot ${slot}`);
      return line.port;
    },
    idOf(nodePort) {
      const line = lines.find((candidate) => candidate.port === nodePort);
      if (line === undefined) throw unavailable(`the cluster lists no node on port ${nodePort}`);
      return line.id;
    },
    coversAllSlots(excluded) {
      for (let slot = 0; slot < SLOTS; ) {
        const line = serving(slot);
        if (line === undefined || excluded.has(line.id)) return false;
        const range = line.ranges.find(([from, to]) => slot >= from && slot <= to)!;
        slot = range[1] + 1;
      }
      return true;
    },
  };
}

/** `<id> <ip:port@bus> <flags> <master> <ping> <pong> <epoch> <link> <slot|from-to>...` per line. */
function parseNodes(text: string): NodeLine[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [id, address, flags, , , , , , ...slots] = line.trim().split(' ');
      const port = Number(/:(\d+)@/.exec(address ?? '')?.[1]);
      const flagList = (flags ?? '').split(',');
      const ranges = slots
        .filter((slot) => !slot.startsWith('['))
        .map((slot): [number, number] => {
          const [from, to] = slot.split('-').map(Number);
          return [from!, to ?? from!];
        });
      return {
        id: id!,
        port,
        liveMaster: flagList.includes('master') && !flagList.some((flag) => flag.startsWith('fail')),
        ranges,
      };
    });
}
