import {
  GUARDRAIL_OUTCOMES,
  type Guardrail,
  type GuardrailPhase,
  type GuardrailRun,
  type GuardrailSubject,
  type GuardrailTrip,
  type GuardrailVerdict,
  type OpNode,
} from '@agent/protocol';
import { errorMessage, isRecord } from '@agent/protocol/util';
import { toolNameMatcher } from '@agent/schema';
import { DEFAULT_GUARDRAIL_TIMEOUT_MS } from './guardrail.js';
import { checksPhase, type GuardrailRecordTarget, recordGuardrailRun } from './guardrail-record.js';

/** What the session's guardrails decided for one subject at one phase. */
export type GuardDecision<S extends GuardrailSubject> =
  /** Go on with `subject` (rewritten when `rewrittenBy` names the guardrails that did). */
  | { kind: 'go'; subject: S; rewrittenBy: readonly string[] }
  | { kind: 'trip'; trip: GuardrailTrip }
  | { kind: 'deny'; name: string; reason: string }
  | { kind: 'ask'; name: string; reason: string }
  /** A `stream` check asked for a rewrite: hold the rest of the stream for the `report` check. */
  | { kind: 'hold'; name: string };

/** Applies a rewrite's value to the subject; a string says why the value cannot be used. */
export type RewriteApplier<S extends GuardrailSubject> = (subject: S, value: unknown) => S | string;

export interface GuardrailRunnerOptions extends GuardrailRecordTarget {
  signal: AbortSignal;
  sessionId: string;
}

/** What one check answered: a verdict, or why it failed. */
type CheckAnswer = { verdict: GuardrailVerdict } | { error: string };

const VERDICTS_AT: Readonly<Record<GuardrailPhase, readonly string[]>> = {
  prompt: ['pass', 'block', 'rewrite'],
  stream: ['pass', 'block', 'rewrite'],
  report: ['pass', 'block', 'rewrite'],
  arguments: ['pass', 'block', 'rewrite', 'deny', 'ask'],
  result: ['pass', 'block', 'rewrite'],
};

/**
 * Runs a session's guardrails (docs/guardrails.md). Built only when the session has some: a
 * session without guardrails has no runner, and its loop checks nothing. The checks of a phase
 * run in the order configured, each on what the one before let through (rewrites chain); the
 * first block, deny or ask ends the phase.
 */
export class GuardrailRunner {
  private readonly byPhase = new Map<GuardrailPhase, Guardrail[]>();
  private readonly toolMatchers = new Map<Guardrail, ((tool: string) => boolean) | undefined>();

  private constructor(
    guardrails: readonly Guardrail[],
    private readonly o: GuardrailRunnerOptions,
  ) {
    for (const guard of guardrails) {
      const phases: GuardrailPhase[] =
        guard.on === 'input'
          ? ['prompt']
          : guard.on === 'output'
            ? ['stream', 'report']
            : ['arguments', 'result'];
      for (const phase of phases) {
        if (!checksPhase(guard, phase)) continue;
        const list = this.byPhase.get(phase) ?? [];
        list.push(guard);
        this.byPhase.set(phase, list);
      }
      if (guard.on === 'tool') this.toolMatchers.set(guard, toolNameMatcher(guard.tools));
    }
  }

  /** The runner of a session's guardrails; undefined when it has none. */
  static of(
    guardrails: readonly Guardrail[] | undefined,
    o: GuardrailRunnerOptions,
  ): GuardrailRunner | undefined {
    return guardrails === undefined || guardrails.length === 0
      ? undefined
      : new GuardrailRunner(guardrails, o);
  }

  /** Whether any guardrail checks `phase` (for `tool` phases: of the tool `tool`). */
  checks(phase: GuardrailPhase, tool?: string): boolean {
    const list = this.byPhase.get(phase);
    if (list === undefined) return false;
    return tool === undefined || list.some((guard) => this.appliesTo(guard, tool));
  }

  /** Input guardrails that run beside the first model call. */
  get parallelInput(): boolean {
    return (this.byPhase.get('prompt') ?? []).some((guard) => guard.parallel === true);
  }

  async run<S extends GuardrailSubject>(
    subject: S,
    parent: OpNode,
    apply: RewriteApplier<S>,
  ): Promise<GuardDecision<S>> {
    const { phase } = subject;
    const tool = 'tool' in subject ? subject.tool : undefined;
    const rewrittenBy: string[] = [];
    let current = subject;
    for (const guard of this.byPhase.get(phase) ?? []) {
      if (tool !== undefined && !this.appliesTo(guard, tool)) continue;
      const decision = await this.runOne(guard, current, parent, apply);
      if (decision.kind !== 'go') return decision;
      if (decision.subject !== current) rewrittenBy.push(guard.name);
      current = decision.subject;
    }
    return { kind: 'go', subject: current, rewrittenBy };
  }

  private appliesTo(guard: Guardrail, tool: string): boolean {
    const matcher = this.toolMatchers.get(guard);
    return matcher === undefined || matcher(tool);
  }

  private async runOne<S extends GuardrailSubject>(
    guard: Guardrail,
    subject: S,
    parent: OpNode,
    apply: RewriteApplier<S>,
  ): Promise<GuardDecision<S>> {
    const started = this.o.now();
    const answer = await this.ask(guard, subject);
    const run: GuardrailRun = {
      name: guard.name,
      on: guard.on,
      phase: subject.phase,
      outcome: 'pass',
      latencyMs: 0,
    };
    if ('callId' in subject) {
      run.callId = subject.callId;
      run.tool = subject.tool;
    }
    let decision: GuardDecision<S> = { kind: 'go', subject, rewrittenBy: [] };
    let failure = 'error' in answer ? answer.error : undefined;
    const verdict = 'verdict' in answer ? answer.verdict : undefined;
    const reason = verdict?.reason === undefined ? undefined : clipReason(verdict.reason);
    if (verdict !== undefined) {
      run.outcome = verdict.verdict;
      if (reason !== undefined) run.reason = reason;
      if (verdict.verdict === 'rewrite') {
        if (subject.phase === 'stream') decision = { kind: 'hold', name: guard.name };
        else {
          const next = apply(subject, verdict.value);
          if (typeof next === 'string') failure = `its rewrite cannot be used: ${next}`;
          else decision = { kind: 'go', subject: next, rewrittenBy: [] };
        }
      } else if (verdict.verdict === 'deny' || verdict.verdict === 'ask') {
        decision = { kind: verdict.verdict, name: guard.name, reason: reason ?? verdict.reason };
      } else if (verdict.verdict === 'block') {
        decision = { kind: 'trip', trip: tripOf(guard, run, reason ?? verdict.reason) };
      }
    }
    if (failure !== undefined) {
      failure = clipReason(failure);
      run.outcome = 'error';
      run.reason = failure;
      run.failedOpen = guard.failOpen === true;
      decision = run.failedOpen
        ? { kind: 'go', subject, rewrittenBy: [] }
        : { kind: 'trip', trip: tripOf(guard, run, `the guardrail failed: ${failure}`) };
    }
    run.latencyMs = this.o.now() - started;
    recordGuardrailRun(this.o, parent, run, verdict, decision.kind === 'trip');
    return decision;
  }

  /** The check's answer within its time; its signal aborts at the timeout or the session's cancellation. */
  private async ask(guard: Guardrail, subject: GuardrailSubject): Promise<CheckAnswer> {
    const timeoutMs = guard.timeoutMs ?? DEFAULT_GUARDRAIL_TIMEOUT_MS;
    const controller = new AbortController();
    const signal = AbortSignal.any([this.o.signal, controller.signal]);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<CheckAnswer>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new Error(`no verdict within ${timeoutMs} ms`));
        resolve({ error: `no verdict within ${timeoutMs} ms` });
      }, timeoutMs);
      onAbort = () => resolve({ error: 'the session was cancelled' });
      this.o.signal.addEventListener('abort', onAbort, { once: true });
    });
    const context = {
      signal,
      sessionId: this.o.sessionId,
      agentPath: this.o.agentPath,
      turn: this.o.recorder.turn,
    };
    try {
      const answered = Promise.resolve()
        .then(() => guard.check(subject, context))
        .then(
          (value): CheckAnswer =>
            verdictProblem(value, subject.phase) ?? { verdict: value as GuardrailVerdict },
          (error: unknown): CheckAnswer => ({ error: `it threw: ${errorMessage(error)}` }),
        );
      return await Promise.race([answered, stopped]);
    } finally {
      clearTimeout(timer);
      if (onAbort !== undefined) this.o.signal.removeEventListener('abort', onAbort);
    }
  }
}

/** Reasons reach clients, logs and metrics: a check that answers a novel is cut to this. */
const MAX_REASON_CHARS = 500;

function clipReason(reason: string): string {
  return reason.length <= MAX_REASON_CHARS ? reason : `${reason.slice(0, MAX_REASON_CHARS - 3)}...`;
}

/** Why an answer is not a verdict allowed at `phase`; undefined when it is one. */
function verdictProblem(value: unknown, phase: GuardrailPhase): { error: string } | undefined {
  if (!isRecord(value) || typeof value.verdict !== 'string')
    return { error: 'it answered something that is not a verdict ({ verdict: "pass" | ... })' };
  const allowed = VERDICTS_AT[phase];
  if (!GUARDRAIL_OUTCOMES.includes(value.verdict as never) || !allowed.includes(value.verdict))
    return {
      error: `it answered verdict ${JSON.stringify(value.verdict)}; at ${phase} one of ${allowed.join(', ')}`,
    };
  if (value.verdict !== 'pass' && (typeof value.reason !== 'string' || value.reason.length === 0))
    return { error: `its ${value.verdict} verdict has no reason` };
  if (value.verdict === 'rewrite' && !('value' in value))
    return { error: 'its rewrite verdict has no value' };
  return undefined;
}

function tripOf(guard: Guardrail, run: GuardrailRun, reason: string): GuardrailTrip {
  const trip: GuardrailTrip = { name: guard.name, on: guard.on, phase: run.phase, reason };
  if (run.callId !== undefined) trip.callId = run.callId;
  if (run.tool !== undefined) trip.tool = run.tool;
  return trip;
}

/** The result's `error` for a trip: which guardrail blocked what, and why (never the text). */
export function tripMessage(trip: GuardrailTrip): string {
  const what =
    trip.on === 'input'
      ? 'the input'
      : trip.phase === 'stream' || trip.phase === 'report'
        ? 'the report'
        : `the tool call ${trip.callId} (${trip.tool})${trip.phase === 'result' ? "'s result" : ''}`;
  return `guardrail ${trip.name} blocked ${what}: ${trip.reason}`;
}
