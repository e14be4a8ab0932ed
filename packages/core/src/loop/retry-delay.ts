import { createRequire } from 'node:module';
import { ConfigError, type ModelError } from '@agent/protocol';
import type * as Cockatiel from 'cockatiel';
import type { IBackoff } from 'cockatiel';

/** cockatiel, loaded by the first retry (a run whose calls all answer never loads it). */
let cockatiel: typeof Cockatiel | undefined;

/** Backoff before a target is tried again after a transient failure. */
export interface RetryBackoffSettings {
  /** Upper bound of the first wait, milliseconds (default 500). */
  baseMs?: number;
  /** Upper bound of any wait, milliseconds (default 30000). */
  maxMs?: number;
}

/** Bounds for honouring a provider's retry-after. */
export const MIN_RATE_LIMIT_WAIT_MS = 1_000;
export const MAX_RATE_LIMIT_WAIT_MS = 60_000;

export const DEFAULT_RETRY_BASE_MS = 500;
export const DEFAULT_RETRY_MAX_MS = 30_000;

/** Where a target is in its backoff sequence (cockatiel's immutable backoff state). */
export type BackoffStep = IBackoff<unknown>;

/** A configured backoff: `first()` starts a sequence, a step's `next()` continues it. */
export function backoffFor(settings: RetryBackoffSettings | undefined): { first(): BackoffStep } {
  const maxDelay = settings?.maxMs ?? DEFAULT_RETRY_MAX_MS;
  const initialDelay = Math.min(settings?.baseMs ?? DEFAULT_RETRY_BASE_MS, maxDelay);
  let factory: Cockatiel.ExponentialBackoff<unknown> | undefined;
  const made = () => {
    cockatiel ??= createRequire(import.meta.url)('cockatiel') as typeof Cockatiel;
    // Half jitter: the n-th wait is uniform in [d/2, d), d = min(max, base * 2^(n-1)), so
    // retries of many sessions spread out while every wait still has a floor.
    factory ??= new cockatiel.ExponentialBackoff({
      generator: cockatiel.halfJitterGenerator,
      initialDelay,
      maxDelay,
      exponent: 2,
    });
    return factory;
  };
  return { first: () => made().next() };
}

/**
 * The wait before the next call to a target that just failed, and its new backoff step. The
 * provider's `retry-after`, when it sent one, wins (bounded to 1-60 s like a rate limit's);
 * otherwise the next exponential step with jitter. The step advances either way, so a
 * target that keeps failing waits longer each time.
 */
export function retryDelay(
  previous: BackoffStep | undefined,
  error: Pick<ModelError, 'retryAfterMs'>,
  backoff: { first(): BackoffStep },
): { delayMs: number; step: BackoffStep } {
  const step = previous === undefined ? backoff.first() : previous.next(undefined);
  const delayMs =
    error.retryAfterMs === undefined
      ? Math.round(step.duration)
      : Math.min(MAX_RATE_LIMIT_WAIT_MS, Math.max(MIN_RATE_LIMIT_WAIT_MS, error.retryAfterMs));
  return { delayMs, step };
}

/** Problems with `retryBackoff`, for the session's configuration check. */
export function retryBackoffProblems(settings: RetryBackoffSettings | undefined): ConfigError[] {
  if (settings === undefined) return [];
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
    return [
      new ConfigError({ field: 'retryBackoff', value: settings, allowed: 'an object { baseMs?, maxMs? }' }),
    ];
  }
  const problems: ConfigError[] = [];
  for (const key of ['baseMs', 'maxMs'] as const) {
    const value = settings[key];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value >= 0)) {
      problems.push(
        new ConfigError({ field: `retryBackoff.${key}`, value, allowed: 'a number of milliseconds >= 0' }),
      );
    }
  }
  const { baseMs, maxMs } = settings;
  if (problems.length === 0 && baseMs !== undefined && maxMs !== undefined && baseMs > maxMs) {
    problems.push(
      new ConfigError({
        field: 'retryBackoff.baseMs',
        value: baseMs,
        allowed: `at most retryBackoff.maxMs (${maxMs})`,
        message: `retryBackoff.baseMs (${baseMs}) must not exceed retryBackoff.maxMs (${maxMs})`,
      }),
    );
  }
  return problems;
}
