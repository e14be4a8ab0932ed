import type { ModelError, ModelTarget } from '@agent/protocol';
import type { SessionRecorder } from '../observe/recorder.js';
import { classifyModelError } from './error-policy.js';
import type { TargetHealth } from './target-health.js';
import type { TargetRotation } from './target-rotation.js';
import { ABORTED, type TurnEnd } from './turn-end.js';

/** What a failed model call and a backoff wait need of the turn loop (its options). */
interface ModelErrorTurnOptions {
  signal: AbortSignal;
  rotation: TargetRotation;
  maxRetries: number;
  recorder: SessionRecorder;
  now: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * What a failed call means for the turn: `not-counted` when the target was dropped (the
 * others still get their tries), `counted` when it used up an attempt (after the rate-limit
 * sleep, once every target is rate-limited and `attemptsAfter` leaves another attempt), or
 * how the turn ends.
 */
export async function afterModelError(
  o: ModelErrorTurnOptions,
  health: TargetHealth,
  target: ModelTarget,
  error: ModelError,
  attemptsAfter: number,
): Promise<'counted' | 'not-counted' | TurnEnd> {
  const action = classifyModelError(error, o.signal.aborted);
  if (action.kind === 'aborted') return ABORTED;
  health.failed(target, error, o.now());
  if (action.kind === 'drop-target' || action.kind === 'context') {
    o.rotation.drop(target, action.kind === 'context' ? 'context' : action.reason);
    return 'not-counted';
  }
  o.rotation.advance();
  if (action.kind !== 'rate-limited') return 'counted';
  o.rotation.markRateLimited(target, error);
  const wait = o.rotation.takeRateLimitWait();
  if (wait <= 0 || attemptsAfter >= o.maxRetries) return 'counted';
  o.recorder.log({
    severity: 'WRN',
    direction: 'response',
    type: 'llm',
    remoteIdentifier: 'agent:rate-limit',
    message: `every model is rate-limited; waiting ${wait} ms`,
  });
  try {
    await o.sleep(wait, o.signal);
    return 'counted';
  } catch {
    return ABORTED;
  }
}

/**
 * Waits out the target's backoff (`wait` ms), when it failed transiently and its time has not
 * come (moving to another target never waits: that one has its own). False when the session
 * was aborted.
 */
export async function waitOutBackoff(
  o: ModelErrorTurnOptions,
  target: ModelTarget,
  wait: number,
): Promise<boolean> {
  o.recorder.log({
    severity: 'WRN',
    direction: 'response',
    type: 'llm',
    remoteIdentifier: 'agent:retry-backoff',
    message: `waiting ${wait} ms before calling ${target.client.provider}:${target.client.model} again`,
  });
  try {
    await o.sleep(wait, o.signal);
    return true;
  } catch {
    return false;
  }
}
