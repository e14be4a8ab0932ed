import { scanTargets } from '../redis-client.js';
import type { RedisClient } from '../redis-cluster.js';
import type { SessionKeyLayout } from './redis-session-keys.js';
import { type SealReport, SealTally, sealVerdict } from './seal-unsealed.js';
import { SEAL_PREFIX, type SnapshotKeys } from './snapshot-seal.js';

/** A string key's text when it carries no tag; nothing for a tagged, missing or non-string key. */
const PEEK_UNTAGGED = `
if redis.call('TYPE', KEYS[1]).ok ~= 'string' then return false end
if redis.call('GETRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1) == ARGV[1] then return false end
return redis.call('GET', KEYS[1])
`;

/** Replaces the text when it is still the one judged (1), keeping its expiry; else 0. */
const SEAL_IF_UNCHANGED = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('SET', KEYS[1], ARGV[2], 'PX', ttl) else redis.call('SET', KEYS[1], ARGV[2]) end
return 1
`;

/** Keys asked per SCAN step (a hint to the server, which never blocks on it as KEYS would). */
const SCAN_COUNT = 100;
/** Tries per snapshot while other writers replace it. */
const MAX_TRIES = 3;

type Run = <T>(what: string, command: () => Promise<T>) => Promise<T>;

/** A MATCH pattern for the keys starting with `prefix` (its glob characters escaped). */
function prefixPattern(prefix: string): string {
  return `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
}

/**
 * Seals the untagged version 1 snapshots under `prefix` (`sealVerdict`): SCAN in steps of
 * `SCAN_COUNT` on each master, keys that are not snapshot keys (`SessionKeyLayout`) passed over (turn journals,
 * `#journal`, and anything else beside the snapshots), one snapshot in memory at a time, each
 * rewritten by a script only while it is the text judged, its expiry kept.
 */
export async function sealUnsealedRedis(
  client: RedisClient,
  settings: { prefix: string; layout: SessionKeyLayout; keys: SnapshotKeys; run: Run },
): Promise<SealReport> {
  const { prefix, layout, run } = settings;
  const tally = new SealTally();
  const pattern = prefixPattern(prefix);
  // A cluster's keys are spread over its masters: each one is scanned.
  for (const node of scanTargets(client)) {
    let cursor = '0';
    do {
      const [next, found] = await run('listing the stored snapshots', () =>
        node.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT),
      );
      cursor = next;
      for (const key of found) {
        const id = layout.idOf(key);
        if (id !== undefined) await sealKey(client, key, id, settings, tally);
      }
    } while (cursor !== '0');
  }
  return tally.done();
}

async function sealKey(
  client: RedisClient,
  key: string,
  id: string,
  settings: { keys: SnapshotKeys; run: Run },
  tally: SealTally,
): Promise<void> {
  const what = `sealing the snapshot of session ${id}`;
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const text = (await settings.run(what, () =>
      client.eval(PEEK_UNTAGGED, 1, key, SEAL_PREFIX, SEAL_PREFIX.length),
    )) as string | null;
    if (text === null) return;
    const verdict = sealVerdict(text, id, settings.keys);
    if (verdict.kind === 'tagged') return;
    if (verdict.kind === 'skip') return tally.skipped(id, verdict.why);
    const done = await settings.run(what, () => client.eval(SEAL_IF_UNCHANGED, 1, key, text, verdict.text));
    if (done === 1) return tally.sealed();
  }
  tally.skipped(
    id,
    'it kept changing while it was being sealed (another process writes it); run the command again',
  );
}
