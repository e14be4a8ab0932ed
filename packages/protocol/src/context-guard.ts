import type { LogEntry } from './log-entry.js';

/** What made the context guard act (seed 002: the `trigger` of its metrics and log lines). */
export type ContextGuardTrigger = 'turn_projection' | 'tool_result' | 'model_refused';
export const CONTEXT_GUARD_TRIGGERS: readonly ContextGuardTrigger[] = [
  'turn_projection',
  'tool_result',
  'model_refused',
];

/** What the guard did (seed 002's `outcome`): refused a tool result, or forced the final turn. */
export type ContextGuardOutcome = 'tool_dropped' | 'final_turn_forced';
export const CONTEXT_GUARD_OUTCOMES: readonly ContextGuardOutcome[] = ['tool_dropped', 'final_turn_forced'];

/** One activation of the guard, as its log line tells it. */
export interface ContextGuardEvent {
  trigger: ContextGuardTrigger;
  outcome: ContextGuardOutcome;
  /** The target the request was measured against, when there was one. */
  provider?: string;
  model?: string;
  /** Tokens left in the window before the refused addition (absent when a model refused). */
  remainingTokens?: number;
}

/**
 * The guard's activation a log line reports (its `details` carry `trigger` and `outcome`), or
 * undefined for any other line or values outside the known sets: what a metric may count.
 */
export function contextGuardEvent(entry: LogEntry): ContextGuardEvent | undefined {
  const details = entry.details;
  if (details === undefined || !entry.remoteIdentifier.startsWith('agent:')) return undefined;
  const trigger = CONTEXT_GUARD_TRIGGERS.find((known) => known === details.trigger);
  const outcome = CONTEXT_GUARD_OUTCOMES.find((known) => known === details.outcome);
  if (trigger === undefined || outcome === undefined) return undefined;
  const event: ContextGuardEvent = { trigger, outcome };
  if (typeof details.provider === 'string') event.provider = details.provider;
  if (typeof details.model === 'string') event.model = details.model;
  if (typeof details.remaining_tokens === 'number') event.remainingTokens = details.remaining_tokens;
  return event;
}
