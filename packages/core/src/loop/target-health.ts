import type { ModelError, ModelTarget } from '@agent/protocol';
import { type BackoffStep, backoffFor, type RetryBackoffSettings, retryDelay } from './retry-delay.js';

/** Failures worth waiting out before the same target is called again. */
const TRANSIENT = new Set<ModelError['kind']>(['network', 'timeout', 'server', 'invalid_response']);

/** Longest piece of one target's error quoted in the result's `error`. */
const MAX_QUOTED_ERROR = 500;

interface Health {
  step?: BackoffStep;
  /** `now()` before which this target is not called again. */
  retryAt?: number;
  lastError?: string;
}

/**
 * What the session knows about each target's recent failures: when it may be called again
 * (exponential backoff after a transient failure; moving to another target never waits) and
 * the last error it gave, to say in the result why no model answered. An answer clears both.
 */
export class TargetHealth {
  /** Made at the first failure: most sessions never see one (an empty map is ~180 bytes kept). */
  private byTarget: Map<ModelTarget, Health> | undefined;
  private readonly backoff: ReturnType<typeof backoffFor>;

  constructor(
    private readonly targets: readonly ModelTarget[],
    settings: RetryBackoffSettings | undefined,
  ) {
    this.backoff = backoffFor(settings);
  }

  /** Records a failed call at `at`; a transient failure schedules this target's backoff. */
  failed(target: ModelTarget, error: ModelError, at: number): void {
    const health = this.of(target);
    health.lastError = describeError(target, error);
    if (!TRANSIENT.has(error.kind)) return;
    const { delayMs, step } = retryDelay(health.step, error, this.backoff);
    health.step = step;
    health.retryAt = at + delayMs;
  }

  /** The target answered: its backoff starts over and its old error no longer explains anything. */
  answered(target: ModelTarget): void {
    this.byTarget?.delete(target);
  }

  /** Milliseconds to wait before calling this target now (0 when it may be called at once). */
  waitBefore(target: ModelTarget, now: number): number {
    const retryAt = this.byTarget?.get(target)?.retryAt;
    return retryAt === undefined ? 0 : Math.max(0, retryAt - now);
  }

  /** `provider/model: error` for every target that has failed since it last answered, in target order. */
  lastErrors(): string[] {
    const out: string[] = [];
    for (const target of this.targets) {
      const error = this.byTarget?.get(target)?.lastError;
      if (error !== undefined) out.push(error);
    }
    return out;
  }

  private of(target: ModelTarget): Health {
    this.byTarget ??= new Map();
    let health = this.byTarget.get(target);
    if (health === undefined) {
      health = {};
      this.byTarget.set(target, health);
    }
    return health;
  }
}

/**
 * `provider/model: message`, the message as the client gave it (the project's providers
 * already start it with `provider/model:` and have removed secrets from it), on one line.
 */
export function describeError(target: ModelTarget, error: ModelError): string {
  const label = `${target.client.provider}/${target.client.model}`;
  let message = error.message.replace(/\s+/g, ' ').trim();
  if (message.startsWith(`${label}:`)) message = message.slice(label.length + 1).trim();
  if (message.length === 0) message = error.kind;
  if (message.length > MAX_QUOTED_ERROR) message = `${message.slice(0, MAX_QUOTED_ERROR - 1)}…`;
  return `${label}: ${message}`;
}
