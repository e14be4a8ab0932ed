import {
  COMPACTION_STORE_NAME,
  type CompactionRun,
  type CompactionState,
  type CompactionTrigger,
  DEFAULT_CONTEXT_BUFFER,
  type ModelTarget,
  type OpNode,
  type ResolvedCompaction,
  type ToolOutputHook,
} from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { ContextGuard, ContextProjection } from '../context/context-guard.js';
import type { TokenEstimator } from '../context/token-estimator.js';
import type { SessionState } from '../loop/session-state.js';
import type { TargetRotation } from '../loop/target-rotation.js';
import { reportCompaction } from './compaction-report.js';
import { type CompactionPlan, initialCompactionState, planCompaction } from './plan.js';
import { callSummary, type SummaryCallContext } from './summary-call.js';
import { summaryMessages } from './summary-input.js';
import { summaryMessage } from './summary-message.js';
import { renderTranscript } from './transcript.js';

export interface CompactorOptions extends SummaryCallContext {
  settings: ResolvedCompaction;
  state: SessionState;
  guard: ContextGuard;
  estimator: TokenEstimator;
  rotation: TargetRotation;
  hook: ToolOutputHook | undefined;
  maxTurns: number;
  /** The session's `stream` option (the summary call streams as the session's calls do). */
  stream: boolean | undefined;
}

/** The next turn's request, as the turn loop projects it. */
export interface NextRequest {
  /** Corrected tokens of the next request (conversation, tools, notice) against the current target's limit. */
  nextProjection(): ContextProjection;
}

/** A compaction's progress, filled in as it goes. */
interface Attempt {
  trigger: CompactionTrigger;
  plan: CompactionPlan;
  before: ContextProjection;
  threshold: number;
  target: ModelTarget;
  node: OpNode;
  started: number;
  calls: number;
  handle?: string;
  summary?: string;
  after?: number;
}

/**
 * Replaces a session's older turns by a summary the model writes (docs/compaction.md): between
 * two turns when the next request is projected past `at` of the limit, and inside a turn when a
 * tool result does not fit. At most one compaction between two turns (the result sizer allows
 * one inside a turn); one that fails gives compaction up for the rest of the session, so the
 * context guard's forced final turn runs as without it.
 */
export class Compactor {
  constructor(private readonly o: CompactorOptions) {}

  /** Compacts when due: called after a turn the session goes on from, before its checkpoint. */
  async between(next: NextRequest): Promise<void> {
    await this.run(next, 'turn_projection', 0);
  }

  /**
   * A tool result of the turn in progress overflows the next request by `overflow` tokens:
   * compacts whatever the threshold, unless the turns it could replace hold no more than that
   * (no summary could make room). `next` projects the request with the results admitted so far.
   * The turn in progress is the last kept one, so its calls keep their results. True when a
   * compaction ran (compacted or failed).
   */
  duringTurn(next: NextRequest, overflow: number): Promise<boolean> {
    return this.run(next, 'tool_result', overflow);
  }

  private async run(next: NextRequest, trigger: CompactionTrigger, overflow: number): Promise<boolean> {
    const { state, settings, maxTurns, estimator } = this.o;
    if (state.forcedFinal !== undefined || state.stopRequested || state.turn + 1 >= maxTurns) return false;
    if (this.o.cancel.signal.aborted) return false;
    state.compaction ??= initialCompactionState(state.conversation);
    const compaction = state.compaction;
    if (compaction.exhausted) return false;
    const target = this.o.rotation.current();
    if (target === undefined) return false;
    const before = next.nextProjection();
    const threshold = Math.floor(settings.at * before.limit);
    if (trigger === 'turn_projection' && before.projected <= threshold) return false;
    const plan = planCompaction(state.conversation, compaction, settings.keep);
    if (plan === undefined) return false;
    if (overflow > 0 && estimator.corrected(estimator.rawMessages(plan.replaced)) <= overflow) return false;
    compaction.count++;
    const node = this.o.opTree.begin(this.o.opTree.root, 'compaction', `compaction ${compaction.count}`);
    const started = this.o.now();
    const attempt: Attempt = { trigger, plan, before, threshold, target, node, started, calls: 0 };
    const error = await this.compact(attempt, compaction, next).catch((e: unknown) => errorMessage(e));
    if (error !== undefined) compaction.exhausted = true;
    reportCompaction(this.o, node, runOf(attempt, compaction, error, state.turn, this.o.now()));
    return true;
  }

  /** Stores, summarizes and replaces; the reason it failed, or undefined when the turns were replaced. */
  private async compact(
    attempt: Attempt,
    compaction: CompactionState,
    next: NextRequest,
  ): Promise<string | undefined> {
    const { hook, estimator, cancel } = this.o;
    const { plan } = attempt;
    if (hook?.storeText === undefined)
      return 'the tool-output store cannot take the transcript (its hook has no storeText)';
    const text = renderTranscript(plan.replaced);
    try {
      attempt.handle = await hook.storeText(
        {
          toolName: COMPACTION_STORE_NAME,
          argumentsJson: JSON.stringify({ fromTurn: plan.fromTurn, toTurn: plan.toTurn }),
          text,
          tokens: estimator.text(text),
        },
        cancel.signal,
      );
    } catch (error) {
      return `storing the transcript failed: ${errorMessage(error)}`;
    }
    const summary = await this.summarize(attempt);
    if (!summary.ok) return summary.error;
    attempt.summary = summary.text;
    return this.replace(attempt, compaction, next);
  }

  /** Up to `attempts` summary calls; the first answer with text wins. */
  private async summarize(
    attempt: Attempt,
  ): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
    const { settings, estimator, guard, stream } = this.o;
    const { plan, target } = attempt;
    const head = this.o.state.conversation.slice(0, plan.start);
    const request = head.findLast((m) => m.role === 'user')?.content;
    const buffer = target.contextBuffer ?? DEFAULT_CONTEXT_BUFFER;
    const messages = summaryMessages({
      request,
      previous: plan.previous?.content,
      messages: plan.previous === undefined ? plan.replaced : plan.replaced.slice(1),
      fromTurn: plan.fromTurn,
      toTurn: plan.toTurn,
      handle: attempt.handle!,
      budget: guard.windowFor(target) - buffer - settings.tokens,
      count: (text) => estimator.text(text),
    });
    let error = 'no summary call was made';
    while (attempt.calls < settings.attempts) {
      if (this.o.cancel.signal.aborted) return { ok: false, error: 'the session was cancelled' };
      attempt.calls++;
      const outcome = await callSummary(
        target,
        { messages, maxOutputTokens: settings.tokens, ...(stream === undefined ? {} : { stream }) },
        this.o,
        attempt.node,
        attempt.calls,
      );
      if (outcome.ok) return outcome;
      error = outcome.error;
    }
    return {
      ok: false,
      error: `every summary call failed (${attempt.calls} of ${settings.attempts}); the last: ${error}`,
    };
  }

  /** Puts the summary in place of the compacted turns, unless the request would not shrink. */
  private replace(attempt: Attempt, compaction: CompactionState, next: NextRequest): string | undefined {
    const { state, guard } = this.o;
    const { plan, before } = attempt;
    const range = { handle: attempt.handle!, fromTurn: plan.fromTurn, toTurn: plan.toTurn };
    const message = summaryMessage(range, compaction.ranges, attempt.summary!);
    const removed = state.conversation.splice(plan.start, plan.end - plan.start, message);
    guard.reset(state.conversation);
    const after = next.nextProjection();
    if (after.projected >= before.projected || !after.fits) {
      state.conversation.splice(plan.start, 1, ...removed);
      guard.reset(state.conversation);
      return `the summary does not fit (the next request would be ${after.projected} tokens, ${before.projected} before, limit ${after.limit})`;
    }
    attempt.after = after.projected;
    compaction.summarized = true;
    compaction.ranges.push(range);
    return undefined;
  }
}

/** The run a compaction's event, op node and log line tell. */
function runOf(
  attempt: Attempt,
  compaction: CompactionState,
  error: string | undefined,
  turn: number,
  now: number,
): CompactionRun {
  const { plan, before, target } = attempt;
  const run: CompactionRun = {
    index: compaction.count,
    turn,
    trigger: attempt.trigger,
    outcome: error === undefined ? 'compacted' : 'failed',
    beforeTokens: before.projected,
    afterTokens: attempt.after ?? before.projected,
    limitTokens: before.limit,
    thresholdTokens: attempt.threshold,
    messages: plan.replaced.length,
    fromTurn: plan.fromTurn,
    toTurn: plan.toTurn,
    calls: attempt.calls,
    provider: target.client.provider,
    model: target.client.model,
    durationMs: now - attempt.started,
  };
  if (error === undefined) {
    run.handle = attempt.handle!;
    run.summary = attempt.summary!;
  } else {
    run.error = error;
    run.exhausted = true;
  }
  return run;
}
