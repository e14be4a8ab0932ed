import { ConfigError } from '@agent/protocol';
import { parseDurationMs } from '@agent/protocol/util';

/** The longest TTL accepted: a year (a longer one is almost certainly a unit mistake). */
export const MAX_TTL_MS = 365 * 24 * 60 * 60 * 1000;

/** What a TTL may be, in words that finish "must be ...". */
export const TTL_ALLOWED =
  'off, a number of milliseconds, or a duration such as 30s, 5m, 1h, 1d, 1w, 1mo, 1y (at most a year)';

/** ai-agent's long units: a month is 30 days, a year 365 days. */
const LONG_UNITS: Record<string, number> = { mo: 30 * 86_400_000, y: 365 * 86_400_000 };
const LONG_DURATION = /^(\d{1,6}(?:\.\d{1,6})?)\s*(mo|y)$/;

/**
 * A TTL in milliseconds from what a file says: `off` (or 0) is 0, meaning no caching; a
 * non-negative integer is milliseconds; `30s`, `5m`, `1h`, `1d`, `1w` (and `250ms`) are
 * durations, and so are ai-agent's `1mo` (30 days) and `1y` (365 days). Throws `ConfigError`
 * (`field` as given) for anything else.
 */
export function parseTtl(value: unknown, field = 'cache'): number {
  const fail = () => new ConfigError({ field, value, allowed: TTL_ALLOWED });
  if (typeof value === 'string' && value.trim().toLowerCase() === 'off') return 0;
  const ms = parseDurationMs(value) ?? longDuration(value);
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

/** `2mo`, `1y`, `0.5y` in milliseconds (whole milliseconds only); undefined for anything else. */
function longDuration(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = LONG_DURATION.exec(value.trim().toLowerCase());
  if (match === null) return undefined;
  const ms = Number(match[1]) * (LONG_UNITS[match[2]!] ?? 0);
  const whole = Math.round(ms);
  return Number.isSafeInteger(whole) && Math.abs(ms - whole) < 1e-6 ? whole : undefined;
}
