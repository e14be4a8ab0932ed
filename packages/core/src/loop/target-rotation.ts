import type { ExitCode, ModelError, ModelTarget } from '@agent/protocol';
import { MAX_RATE_LIMIT_WAIT_MS, MIN_RATE_LIMIT_WAIT_MS } from './retry-delay.js';

/** Why a target is out: for the session, or (`bad_request`) until the next turn. */
type DropReason = 'auth' | 'quota' | 'model_not_found' | 'context' | 'bad_request';

const SESSION_DROPS = new Set<string>(['auth', 'quota', 'model_not_found', 'context']);

interface TargetState {
  target: ModelTarget;
  dropped?: DropReason;
  /** Wait the provider asked for, set while this target is rate-limited in the current round. */
  rateLimitedFor?: number;
}

/**
 * Which target the next attempt uses. Each turn starts at the first live target and every
 * failed attempt moves to the next one; targets that cannot work again (bad key, no quota,
 * unknown model, prompt too long) are dropped for the rest of the session, and a target that
 * refused the request as invalid for the rest of the turn.
 */
export class TargetRotation {
  private readonly states: TargetState[];
  private cursor = 0;

  constructor(targets: readonly ModelTarget[]) {
    this.states = targets.map((target) => ({ target }));
  }

  get liveCount(): number {
    let count = 0;
    for (const state of this.states) if (state.dropped === undefined) count++;
    return count;
  }

  /** Start of a turn: back to the primary target; targets that refused the last turn's request get this one. */
  resetForTurn(): void {
    this.cursor = 0;
    for (const state of this.states) if (state.dropped === 'bad_request') delete state.dropped;
  }

  current(): ModelTarget | undefined {
    // Counted, not filtered into a list: asked several times a turn.
    const live = this.liveCount;
    if (live === 0) return undefined;
    let skip = this.cursor % live;
    for (const state of this.states) {
      if (state.dropped !== undefined) continue;
      if (skip === 0) return state.target;
      skip--;
    }
    return undefined;
  }

  /** After a failed attempt. */
  advance(): void {
    this.cursor++;
  }

  drop(target: ModelTarget, reason: DropReason): void {
    const state = this.states.find((s) => s.target === target);
    if (state !== undefined) state.dropped = reason;
  }

  /** Restores targets dropped only for context size (the final turn sends less). */
  restoreContextDrops(): void {
    for (const state of this.states) if (state.dropped === 'context') delete state.dropped;
  }

  markRateLimited(target: ModelTarget, error: ModelError): void {
    const state = this.states.find((s) => s.target === target);
    if (state !== undefined) state.rateLimitedFor = error.retryAfterMs ?? MIN_RATE_LIMIT_WAIT_MS;
  }

  /**
   * When every live target is rate-limited, how long to sleep (the shortest wait asked for,
   * clamped to 1-60 s); clears the marks so the next round starts fresh. Otherwise 0.
   */
  takeRateLimitWait(): number {
    const live = this.liveStates();
    if (live.length === 0 || live.some((s) => s.rateLimitedFor === undefined)) return 0;
    const shortest = Math.min(...live.map((s) => s.rateLimitedFor!));
    for (const state of live) delete state.rateLimitedFor;
    return Math.min(MAX_RATE_LIMIT_WAIT_MS, Math.max(MIN_RATE_LIMIT_WAIT_MS, shortest));
  }

  /** Per target, in order: why it is out for the session (null: live); for a snapshot. */
  droppedReasons(): (string | null)[] {
    return this.states.map((s) =>
      s.dropped === undefined || s.dropped === 'bad_request' ? null : s.dropped,
    );
  }

  /** Restores the drops of a snapshot (unknown reasons and extra entries are ignored). */
  restoreDrops(reasons: readonly (string | null)[]): void {
    reasons.forEach((reason, index) => {
      const state = this.states[index];
      if (state !== undefined && reason !== null && SESSION_DROPS.has(reason))
        state.dropped = reason as DropReason;
    });
  }

  /** Exit code when no target is left, from the reasons they were dropped. */
  exhaustedExitCode(): ExitCode {
    const reasons = new Set(this.states.map((s) => s.dropped));
    if (reasons.has('auth')) return 'EXIT-AUTH-FAILURE';
    if (reasons.has('quota')) return 'EXIT-QUOTA-EXCEEDED';
    if (reasons.has('context')) return 'EXIT-TOKEN-LIMIT';
    return 'EXIT-MODEL-ERROR';
  }

  private liveStates(): TargetState[] {
    return this.states.filter((s) => s.dropped === undefined);
  }
}
