import { ConfigError } from '@agent/protocol';
import { parseDurationMs } from '@agent/protocol/util';

/** The longest TTL accepted: a year (a longer one is almost certainly a unit mistake). */
export const MAX_TTL_MS = 365 * 24 * 60 * 60 * 1000;

/** What a TTL may be, in words that finish "must be ...". */
export const TTL_ALLOWED =
  'off, a number of milliseconds, or a duration such as 30s, 5m, 1h, 1d, 1w (at most a year)';

/**
 * A TTL in milliseconds from what a file says: `off` (or 0) is 0, meaning no caching; a
 * non-negative integer is milliseconds; `30s`, `5m`, `1h`, `1d`, `1w` (and `250ms`) are
 * durations. Throws `ConfigError` (`field` as given) for anything else.
 */
export function parseTtl(value: unknown, field = 'cache'): number {
  const fail = () => new ConfigError({ field, value, allowed: TTL_ALLOWED });
  if (typeof value === 'string' && value.trim().toLowerCase() === 'off') return 0;
  const ms = parseDurationMs(value);
  if (ms === undefined) throw fail();
  if (ms > MAX_TTL_MS) throw fail();
  return ms;
}

/** `90000` -> `1m30s`: a TTL as people read it (for logs and summaries). */
export function formatTtl(ms: number): string {
  if (ms <= 0) return 'off';
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [
    ['w', 604_800_000],
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  if (rest > 0) parts.push(`${rest}ms`);
  return parts.join('');
}
