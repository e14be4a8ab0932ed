// Reads the turn journal out of Redis right after a worker is killed (its entries are frozen
// then: no other worker resumes its sessions before the 2 s lock expires), and keeps which
// calls had their outcome journaled. Key names and entry encoding are the stores' business: the
// probe reads every value of every key whose name contains `journal` and looks for the soak's
// call ids (`c-<op>-a<attempt>`) in it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Every value of the keys matching ARGV[1], whatever their type. */
const READ_KEYS = `
local out = {}
for _, k in ipairs(redis.call('KEYS', ARGV[1])) do
  local t = redis.call('TYPE', k).ok
  if t == 'string' then table.insert(out, redis.call('GET', k))
  elseif t == 'list' then for _, v in ipairs(redis.call('LRANGE', k, 0, -1)) do table.insert(out, v) end
  elseif t == 'hash' then for _, v in ipairs(redis.call('HVALS', k)) do table.insert(out, v) end
  elseif t == 'zset' then for _, v in ipairs(redis.call('ZRANGE', k, 0, -1)) do table.insert(out, v) end
  end
end
return out`;

const CALL_ID = /^c-(soak-\d+\.t\d\.[a-z])-a\d+$/;

/** The call ids of the `tool_outcome` entries in `value`, JSON nested in strings included (a sealed entry wraps its JSON). */
function outcomeCallIds(value: unknown, found: string[], depth = 0): string[] {
  if (depth > 8) return found;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('{') || text.startsWith('[')) {
      try {
        outcomeCallIds(JSON.parse(text), found, depth + 1);
      } catch {
        // Not JSON after all: nothing to read.
      }
    }
    return found;
  }
  if (Array.isArray(value)) {
    for (const item of value) outcomeCallIds(item, found, depth + 1);
    return found;
  }
  if (typeof value === 'object' && value !== null) {
    const entry = value as Record<string, unknown>;
    if (entry.kind === 'tool_outcome' && typeof entry.callId === 'string') found.push(entry.callId);
    for (const item of Object.values(entry)) outcomeCallIds(item, found, depth + 1);
  }
  return found;
}

export class JournalProbe {
  /** Ops whose outcome a probe found journaled, and when first. */
  readonly journaledAt = new Map<string, number>();
  /** Probes made, and those that saw at least one journal value. */
  probes = 0;
  probesWithJournal = 0;
  /** Why a probe failed (redis-cli missing, ...), the first time. */
  failure: string | undefined;

  constructor(private readonly redisUrl: string) {}

  async probe(): Promise<void> {
    const at = Date.now();
    this.probes += 1;
    try {
      const { stdout } = await run(
        'redis-cli',
        ['-u', this.redisUrl, '--raw', 'EVAL', READ_KEYS, '0', '*journal*'],
        {
          timeout: 5000,
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      if (stdout.trim() !== '') this.probesWithJournal += 1;
      // One value per line in --raw output; only tool outcomes say a call finished.
      for (const value of stdout.split('\n')) {
        for (const callId of outcomeCallIds(value, [])) {
          const op = CALL_ID.exec(callId)?.[1];
          if (op !== undefined && !this.journaledAt.has(op)) this.journaledAt.set(op, at);
        }
      }
    } catch (error) {
      this.failure ??= String(error).slice(0, 200);
    }
  }
}
