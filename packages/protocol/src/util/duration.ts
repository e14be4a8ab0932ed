const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

const DURATION = /^(\d{1,15}(?:\.\d{1,6})?)\s*(ms|s|m|h|d|w)?$/;

/** What a duration may be, in words that finish "must be ...". */
export const DURATION_ALLOWED = 'a number of milliseconds or a duration such as 500ms, 30s, 5m, 1h, 1d, 1w';

/**
 * Milliseconds from a duration as files write it: a non-negative integer is milliseconds;
 * `250ms`, `30s`, `5m`, `1.5h`, `1d`, `1w` carry their unit (a bare numeric string is
 * milliseconds). Anything else (negative, fractional milliseconds, unknown unit) is `undefined`.
 */
export function parseDurationMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = DURATION.exec(value.trim().toLowerCase());
  if (match === null) return undefined;
  const ms = Number(match[1]) * (UNIT_MS[match[2] ?? 'ms'] ?? 1);
  const whole = Math.round(ms);
  // A fraction of a millisecond (`1.5ms`) is a mistake, not something to round away.
  return Number.isSafeInteger(whole) && Math.abs(ms - whole) < 1e-6 ? whole : undefined;
}
