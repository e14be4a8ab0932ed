import type {
  ConversationMessage,
  ExpectedOutput,
  ForcedFinalReason,
  ModelTarget,
  OpNode,
  PausedChild,
  ToolCall,
  ToolDefinition,
} from '@agent/protocol';
import type { Compactor } from '../compaction/compactor.js';
import type { ContextGuard, ContextProjection } from '../context/context-guard.js';
import { type GuardTrigger, logContextGuard } from '../context/guard-log.js';
import type { TokenEstimator } from '../context/token-estimator.js';
import { type GuardrailRunner, tripMessage } from '../guardrails/guardrail-runner.js';
import { attemptTarget, type JournalReplay } from '../journal/journal-replay.js';
import type { TurnJournal } from '../journal/turn-journal.js';
import type { OpTreeBuilder } from '../observe/op-tree.js';
import type { SessionRecorder } from '../observe/recorder.js';
import type { ApprovalGate } from '../tools/approval-gate.js';
import type { ResultSizer } from '../tools/result-sizer.js';
import type { ToolExecutor } from '../tools/tool-executor.js';
import { AnswerHandler } from './answer-handler.js';
import { warnPlainTextRetry, warnProgressPairing } from './answer-warnings.js';
import { attemptBesideInput, checkInput, type InputCheck } from './input-guard.js';
import { type AttemptContext, runModelAttempt } from './model-attempt.js';
import { afterModelError, waitOutBackoff } from './model-error-turn.js';
import { textMayBeReport } from './report-adoption.js';
import type { RetryBackoffSettings } from './retry-delay.js';
import type { SamplingOptions } from './sampling.js';
import type { SessionCancel } from './session-cancel.js';
import type { SessionState } from './session-state.js';
import { retractStreamed } from './slot-reader.js';
import { TargetHealth } from './target-health.js';
import type { TargetRotation } from './target-rotation.js';
import { commitToolMessageReport } from './tool-message-adoption.js';
import { ABORTED, finalTurnFailed, guardrailEnd, noTargetLeft, type TurnEnd } from './turn-end.js';
import type { TurnNotice, TurnNotices } from './turn-notice.js';
import { NO_TOOLS, noticeFor, turnRequest, turnStarted } from './turn-request.js';

export interface TurnLoopOptions {
  state: SessionState;
  recorder: SessionRecorder;
  opTree: OpTreeBuilder;
  rotation: TargetRotation;
  estimator: TokenEstimator;
  guard: ContextGuard;
  executor: ToolExecutor;
  sizer: ResultSizer;
  /** Tools offered on a non-final turn (computed per turn: the tool-output tool comes and goes). */
  tools: () => readonly ToolDefinition[];
  /** Tools offered on the final turn: only `report_back`, when the session has it. */
  finalTools: readonly ToolDefinition[];
  /** The session offers `report_back` (seed 004). */
  reportBack: boolean;
  /** A sub-agent: an answer with no tool call and no report is its answer (seed 004, decision 4). */
  answerFromLastMessage: boolean;
  expected: ExpectedOutput;
  nonce: string;
  /** The session's XML-NEXT notices, rendered and counted. */
  notices: TurnNotices;
  maxTurns: number;
  maxRetries: number;
  llmTimeoutMs: number;
  sampling: SamplingOptions;
  signal: AbortSignal;
  /** Tells the model attempt in flight that the session was cancelled (`signal` aborts with it). */
  cancel: SessionCancel;
  agentPath: string;
  now: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  retryBackoff: RetryBackoffSettings | undefined;
  targets: readonly ModelTarget[];
  /** Set when some tool needs approval. */
  approvals?: ApprovalGate;
  /** Set when someone asked for checkpoints: called after every turn the session goes on from. */
  checkpoint?: () => Promise<unknown>;
  /** Set when the session journals its turns (`onJournal`). */
  journal?: TurnJournal;
  /** A resumed session's journal to replay (`resumeJournal`). */
  replay?: JournalReplay;
  /** Set when the session has guardrails. */
  guards?: GuardrailRunner;
  /** A new session (not resumed): its input guardrails run before its first model call. */
  checkInput?: boolean;
  /** Set when the session compacts (docs/compaction.md): runs between two turns, before their checkpoint. */
  compactor?: Compactor;
  /** Checkpoint once before the first turn (a new session that journals): a crash in turn 1 has a snapshot to replay on. */
  openingCheckpoint?: boolean;
}

/** Runs turns until a report is committed or the session has to end. */
export class TurnLoop {
  private readonly answers: AnswerHandler;
  private readonly health: TargetHealth;
  /** What every model attempt of the session records to: one object for the session, not one per attempt. */
  private readonly attempts: AttemptContext;
  /** Input guardrails running beside the first model call (`parallel`), until that call takes them. */
  private besideInput: Promise<InputCheck> | undefined;

  constructor(private readonly o: TurnLoopOptions) {
    this.answers = new AnswerHandler(o, (message) => this.push(message));
    this.health = new TargetHealth(o.targets, o.retryBackoff);
    this.attempts = {
      recorder: o.recorder,
      opTree: o.opTree,
      nonce: o.nonce,
      expected: o.expected,
      cancel: o.cancel,
      timeoutMs: o.llmTimeoutMs,
      agentPath: o.agentPath,
      now: o.now,
      ...(o.guards === undefined ? {} : { guards: o.guards }),
    };
  }

  push(message: ConversationMessage): void {
    this.o.state.conversation.push(message);
    this.o.guard.add(message);
  }

  async run(): Promise<void> {
    const { state, o } = { state: this.o.state, o: this.o };
    // Taken now, stored while the first model call runs: the journal's first entry waits for it.
    if (o.openingCheckpoint === true && o.checkpoint !== undefined && state.turn === 0)
      o.journal?.after(o.checkpoint());
    while (state.exitCode === undefined) {
      state.turn++;
      o.recorder.turn = state.turn;
      if (state.forcedFinal === undefined && state.stopRequested) state.forcedFinal = 'user_stop';
      if (state.forcedFinal === undefined && state.turn >= o.maxTurns) state.forcedFinal = 'max_turns';
      if (state.forcedFinal === undefined) {
        const overflow = this.turnOverflow();
        if (overflow !== undefined) this.forceFinal('context', 'turn_projection', overflow);
      }
      const isFinal = state.forcedFinal !== undefined;
      if (isFinal) o.rotation.restoreContextDrops();
      const turnNode = o.opTree.begin(o.opTree.root, 'turn', `turn ${state.turn}`);
      const end =
        state.turn === 1 && o.checkInput === true && o.guards?.checks('prompt') === true
          ? await this.firstTurnGuarded(turnNode, isFinal)
          : await this.runTurn(turnNode, isFinal);
      o.opTree.end(turnNode, end.kind === 'end' ? 'failed' : 'ok');
      if (this.settle(end)) return;
      if (o.compactor !== undefined) await o.compactor.between(this);
      if (o.checkpoint !== undefined) await o.checkpoint();
    }
  }

  /**
   * Turn 1 of a session with input guardrails: they run first, or (`parallel`) beside its first
   * model call, whose streamed events are held until they pass.
   */
  private async firstTurnGuarded(turnNode: OpNode, isFinal: boolean): Promise<TurnEnd> {
    const guards = this.o.guards!;
    const input = checkInput(guards, this.o.state.conversation, turnNode, this.o.signal);
    if (guards.parallelInput) {
      this.besideInput = input;
      return this.runTurn(turnNode, isFinal);
    }
    const checked = await input;
    return checked.kind === 'end' ? checked.end : this.runTurn(turnNode, isFinal);
  }

  /**
   * Finishes the turn a paused session stopped in: its tool calls (already in the conversation)
   * go through the approval gate again with the decisions given, run, and the loop goes on.
   * `children`: the paused sub-agent sessions its calls continue (by call id).
   */
  async resumePaused(
    turnCalls: readonly ToolCall[],
    children: ReadonlyMap<string, PausedChild> = new Map(),
  ): Promise<void> {
    const { state, o } = { state: this.o.state, o: this.o };
    o.executor.continueChildren(children);
    o.recorder.turn = state.turn;
    o.sizer.beginTurn(this.nextNoticeTokens());
    const turnNode = o.opTree.begin(o.opTree.root, 'turn', `turn ${state.turn} (resumed)`);
    const end = await this.answers.runTools(turnCalls, turnNode);
    o.opTree.end(turnNode, end.kind === 'end' ? 'failed' : 'ok');
    if (this.settle(end)) return;
    if (o.compactor !== undefined) await o.compactor.between(this);
    if (o.checkpoint !== undefined) await o.checkpoint();
    await this.run();
  }

  /** Applies how a turn ended; true when the session ends (or pauses) with it. */
  private settle(end: TurnEnd): boolean {
    const { state } = this.o;
    switch (end.kind) {
      case 'report':
        state.exitCode = 'EXIT-FINAL-ANSWER';
        return true;
      case 'end':
        state.exitCode = end.exitCode;
        state.error = end.error;
        if (end.guardrail !== undefined) state.guardrail = end.guardrail;
        return true;
      case 'pause':
        state.exitCode = 'EXIT-AWAITING-APPROVAL';
        state.paused = end.paused;
        state.error = `awaiting approval of ${end.paused.pending.length} tool call${end.paused.pending.length === 1 ? '' : 's'}: ${end.paused.pending.map((p) => `${p.callId} (${p.tool})`).join(', ')}`;
        return true;
      case 'force-final':
        this.forceFinal(end.reason, 'model_refused');
        return false;
      case 'tools':
        if (end.forceFinal !== undefined) this.forceFinal(end.forceFinal, 'tool_result');
        return false;
    }
  }

  /** Forces the final turn once; the context guard's firing is logged as seed 002 asks. */
  private forceFinal(reason: ForcedFinalReason, trigger: GuardTrigger, projection?: ContextProjection): void {
    if (this.o.state.forcedFinal !== undefined) return;
    this.o.state.forcedFinal = reason;
    if (reason === 'context')
      logContextGuard(this.o.recorder, trigger, this.o.rotation.current(), projection);
  }

  /**
   * The projection of this turn's request (conversation, tool definitions and its XML-NEXT
   * notice) when it does not fit; undefined when it does. Upper bounds first: when they fit,
   * nothing is counted exactly (a small first request loads no tokenizer).
   */
  private turnOverflow(): ContextProjection | undefined {
    const { guard, estimator, rotation } = this.o;
    const target = rotation.current();
    const tools = this.o.tools();
    const notice = this.renderNotice(target, tools, false, 1);
    if (estimator.boundsHelp) {
      const extraBound =
        estimator.corrected(estimator.rawToolsBound(tools)) + estimator.corrected(notice.rawTokensBound);
      const currentBound = estimator.corrected(guard.rawConversationBound);
      if (guard.fits(currentBound, extraBound, target)) return undefined;
    }
    const extra = estimator.tools(tools) + estimator.corrected(notice.rawTokens);
    const current = estimator.corrected(guard.rawConversationTokens);
    if (guard.fits(current, extra, target)) return undefined;
    return guard.project(current, extra, target);
  }

  /** Corrected tokens of messages not yet in the conversation. */
  estimate(messages: readonly ConversationMessage[]): number {
    return this.o.estimator.corrected(this.o.estimator.rawMessages(messages));
  }

  /** Tokens the next request adds to the conversation (tool definitions and its notice), and its limit. */
  requestBudget(): { extra: number; limit: number } {
    const target = this.o.rotation.current();
    return { extra: this.nextExtra(target), limit: this.o.guard.limitFor(target) };
  }

  /** The next request (conversation, `pendingRaw` results of this turn, tools, notice), counted exactly: what a compaction measures. */
  nextProjection(pendingRaw = 0): ContextProjection {
    const { estimator, guard, rotation } = this.o;
    const target = rotation.current();
    const extra = this.nextExtra(target);
    return guard.project(estimator.corrected(guard.rawConversationTokens + pendingRaw), extra, target);
  }

  private nextExtra(target: ModelTarget | undefined): number {
    const { estimator } = this.o;
    const notice = noticeFor(this.o, target, this.o.state.turn + 1, 1, undefined, NO_TOOLS);
    return estimator.tools(this.o.tools()) + estimator.corrected(notice.rawTokens);
  }

  /**
   * Tokens of the notice the next turn's request carries (for the tool-result checks of this
   * turn), with the correction of now, counted when a tool result is first checked.
   */
  private nextNoticeTokens(): () => number {
    const notice = noticeFor(
      this.o,
      this.o.rotation.current(),
      this.o.state.turn + 1,
      1,
      undefined,
      NO_TOOLS,
    );
    const factor = this.o.estimator.correctionFactor;
    return () => Math.ceil(notice.rawTokens * factor);
  }

  private async runTurn(turnNode: OpNode, isFinal: boolean): Promise<TurnEnd> {
    const o = this.o;
    const { state } = o;
    o.rotation.resetForTurn();
    o.sizer.beginTurn(isFinal ? 0 : this.nextNoticeTokens());
    let failures = 0;
    let modelErrorsOnly = true;
    let retrySlugs: string[] | undefined;
    while (failures < o.maxRetries) {
      if (o.signal.aborted) return ABORTED;
      const target = o.rotation.current();
      if (target === undefined) return noTargetLeft(o.rotation, isFinal, this.health.lastErrors());
      // Awaited only when there is a wait: most attempts have none, and cost no promise for it.
      const wait = this.health.waitBefore(target, o.now());
      if (wait > 0 && !(await waitOutBackoff(o, target, wait))) return ABORTED;
      const attemptNo = failures + 1;
      if (o.recorder.watched) o.recorder.emit(turnStarted(state, attemptNo, isFinal, retrySlugs));
      const tools = isFinal ? o.finalTools : o.tools();
      const notice = this.renderNotice(target, tools, isFinal, attemptNo);
      const request = turnRequest(o.state.conversation, notice, tools, o.sampling);
      const attemptOn =
        o.replay === undefined ? target : attemptTarget(o.replay, state.turn, target, o.recorder);
      const holdOutside = textMayBeReport(isFinal, o.answerFromLastMessage);
      const besideInput = this.besideInput;
      this.besideInput = undefined;
      const outcome =
        besideInput === undefined
          ? await runModelAttempt(attemptOn, request, this.attempts, turnNode, attemptNo, holdOutside)
          : await attemptBesideInput(o.recorder, besideInput, (stop) =>
              runModelAttempt(attemptOn, request, this.attempts, turnNode, attemptNo, holdOutside, stop),
            );
      if (outcome === 'again') continue;
      if ('kind' in outcome) return outcome;
      if (outcome.ok && outcome.slot.guardrail !== undefined) {
        retractStreamed(
          o.recorder,
          outcome.slot.streamedChars,
          'guardrail',
          tripMessage(outcome.slot.guardrail),
        );
        return guardrailEnd(outcome.slot.guardrail, o.signal);
      }
      if (!outcome.ok) {
        o.recorder.replaying = false;
        retrySlugs = [outcome.error.kind];
        const next = await afterModelError(o, this.health, target, outcome.error, failures + 1);
        if (next === 'counted') failures++;
        else if (next !== 'not-counted') return next;
        continue;
      }
      modelErrorsOnly = false;
      this.health.answered(target);
      const reported = outcome.usage?.inputTokens ?? 0;
      if (reported > 0) this.observeReported(reported, notice, tools);
      state.lastStopReason = outcome.rawStopReason ?? outcome.stopReason;
      warnProgressPairing(outcome, o.recorder);
      const end = await this.answers.handle(outcome, turnNode, isFinal);
      o.recorder.replaying = false;
      if (end !== undefined) return end;
      if (this.answers.lastRetrySlug === 'plain_text') {
        warnPlainTextRetry(o.recorder, `${target.client.provider}:${target.client.model}`);
      }
      failures++;
      o.rotation.advance();
      retrySlugs = [this.answers.lastRetrySlug];
    }
    return this.attemptsExhausted(isFinal, modelErrorsOnly);
  }

  /**
   * Corrects the estimator by what the provider reported for the request. What we estimated:
   * the conversation's running total, the tool definitions (counted once per process) and the
   * notice (its body counted once; read `rawTokens` only inside the closure, as reading it
   * counts); counted when the correction is next needed, so an answer that ends the session
   * counts nothing. Once the tokenizer has counted in the process, counting costs only cache
   * lookups.
   */
  private observeReported(reported: number, notice: TurnNotice, tools: readonly ToolDefinition[]): void {
    const { estimator, guard } = this.o;
    if (estimator.boundsHelp) {
      const conversation = guard.rawTokensNow();
      estimator.observe(reported, () => conversation() + notice.rawTokens + estimator.rawTools(tools));
    } else {
      estimator.observe(reported, guard.rawConversationTokens + notice.rawTokens + estimator.rawTools(tools));
    }
  }

  /** Every attempt of the turn failed: force the final turn, or end a final one. */
  private attemptsExhausted(isFinal: boolean, modelErrorsOnly: boolean): TurnEnd {
    const { state, expected, recorder, maxRetries } = this.o;
    if (!isFinal) return { kind: 'force-final', reason: 'retry_exhaustion' };
    // A model answered, no report attempt was rejected: the last tool result may still answer.
    if (
      !modelErrorsOnly &&
      !state.finalReportFailedEver &&
      commitToolMessageReport(state, expected, recorder)
    )
      return { kind: 'report' };
    return finalTurnFailed(state, maxRetries, modelErrorsOnly ? this.health.lastErrors() : undefined);
  }

  private renderNotice(
    target: ModelTarget | undefined,
    tools: readonly ToolDefinition[],
    isFinal: boolean,
    attempt: number,
  ): TurnNotice {
    const forcedFinal = isFinal ? this.o.state.forcedFinal : undefined;
    // Only read on a forced final turn: the tools that turn still offers (`report_back`).
    const allowedTools = isFinal ? tools.map((t) => t.name) : NO_TOOLS;
    return noticeFor(this.o, target, this.o.state.turn, attempt, forcedFinal, allowedTools);
  }
}
