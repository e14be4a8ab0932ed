import {
  type AssistantMessage,
  type ConversationMessage,
  type ExitCode,
  type ExpectedOutput,
  FINAL_REPORT_TOOL,
  type ForcedFinalReason,
  type ModelRequest,
  type ModelTarget,
  type OpNode,
  type ToolDefinition,
  type ToolResultMessage,
} from '@agent/protocol';
import type { ContextGuard } from '../context/context-guard.js';
import { heuristicTokens, type TokenEstimator } from '../context/token-estimator.js';
import type { OpTreeBuilder } from '../observe/op-tree.js';
import type { SessionRecorder } from '../observe/recorder.js';
import type { ResultSizer } from '../tools/result-sizer.js';
import type { ToolExecutor } from '../tools/tool-executor.js';
import { classifyModelError } from './error-policy.js';
import { type AttemptSuccess, runModelAttempt } from './model-attempt.js';
import {
  EMPTY_ANSWER_NOTICE,
  invalidReportNotice,
  plainTextNotice,
  toolsOnFinalTurnNotice,
} from './notices.js';
import { adoptFinalReport } from './report-adoption.js';
import type { SessionState } from './session-state.js';
import type { TargetRotation } from './target-rotation.js';
import { renderTurnNotice } from './turn-notice.js';

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
  expected: ExpectedOutput;
  nonce: string;
  maxTurns: number;
  maxRetries: number;
  llmTimeoutMs: number;
  sampling: Pick<ModelRequest, 'temperature' | 'topP' | 'maxOutputTokens' | 'reasoning' | 'stream'>;
  signal: AbortSignal;
  agentPath: string;
  now: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

type TurnEnd =
  | { kind: 'report' }
  | { kind: 'tools'; forceFinal?: ForcedFinalReason }
  | { kind: 'force-final'; reason: ForcedFinalReason }
  | { kind: 'end'; exitCode: ExitCode; error: string };

/** Runs turns until a report is committed or the session has to end. */
export class TurnLoop {
  constructor(private readonly o: TurnLoopOptions) {}

  push(message: ConversationMessage): void {
    this.o.state.conversation.push(message);
    this.o.guard.addRaw(this.o.estimator.rawMessages([message]));
  }

  async run(): Promise<void> {
    const { state, o } = { state: this.o.state, o: this.o };
    while (state.exitCode === undefined) {
      state.turn++;
      o.recorder.turn = state.turn;
      if (state.forcedFinal === undefined && state.stopRequested) state.forcedFinal = 'user_stop';
      if (state.forcedFinal === undefined && state.turn >= o.maxTurns) state.forcedFinal = 'max_turns';
      if (state.forcedFinal === undefined && !this.turnFits(false)) state.forcedFinal = 'context';
      const isFinal = state.forcedFinal !== undefined;
      if (isFinal) o.rotation.restoreContextDrops();
      const turnNode = o.opTree.begin(o.opTree.root, 'turn', `turn ${state.turn}`);
      const end = await this.runTurn(turnNode, isFinal);
      o.opTree.end(turnNode, end.kind === 'end' ? 'failed' : 'ok');
      switch (end.kind) {
        case 'report':
          state.exitCode = 'EXIT-FINAL-ANSWER';
          return;
        case 'end':
          state.exitCode = end.exitCode;
          state.error = end.error;
          return;
        case 'force-final':
          state.forcedFinal = end.reason;
          break;
        case 'tools':
          if (end.forceFinal !== undefined) state.forcedFinal ??= end.forceFinal;
          break;
      }
    }
  }

  private turnFits(isFinal: boolean): boolean {
    const { guard, estimator, rotation } = this.o;
    const tools = isFinal ? [] : this.o.tools();
    const extra = estimator.tools(tools) + 600; // the notice, roughly
    const current = estimator.corrected(guard.rawConversationTokens);
    return guard.project(current, extra, rotation.current()).fits;
  }

  private async runTurn(turnNode: OpNode, isFinal: boolean): Promise<TurnEnd> {
    const o = this.o;
    const { state } = o;
    o.rotation.resetForTurn();
    o.sizer.beginTurn();
    let failures = 0;
    let modelErrorsOnly = true;
    let retrySlugs: string[] | undefined;
    while (failures < o.maxRetries) {
      if (o.signal.aborted)
        return { kind: 'end', exitCode: 'EXIT-ABORTED', error: 'the session was cancelled' };
      const target = o.rotation.current();
      if (target === undefined) return this.noTargetLeft(isFinal);
      const attemptNo = failures + 1;
      o.recorder.emit({
        type: 'turn_started',
        turn: state.turn,
        attempt: attemptNo,
        isRetry: attemptNo > 1,
        isFinalTurn: isFinal,
        ...(state.forcedFinal === undefined ? {} : { forcedFinalReason: state.forcedFinal }),
        ...(retrySlugs === undefined ? {} : { retrySlugs }),
      });
      const tools = isFinal ? [] : o.tools();
      const request = this.buildRequest(target, tools, isFinal, attemptNo);
      const outcome = await runModelAttempt(target, request, {
        recorder: o.recorder,
        opTree: o.opTree,
        turnNode,
        nonce: o.nonce,
        signal: o.signal,
        timeoutMs: o.llmTimeoutMs,
        attempt: attemptNo,
        agentPath: o.agentPath,
        now: o.now,
      });
      if (!outcome.ok) {
        const action = classifyModelError(outcome.error, o.signal.aborted);
        retrySlugs = [outcome.error.kind];
        if (action.kind === 'aborted')
          return { kind: 'end', exitCode: 'EXIT-ABORTED', error: 'the session was cancelled' };
        if (action.kind === 'drop-target' || action.kind === 'context') {
          o.rotation.drop(target, action.kind === 'context' ? 'context' : action.reason);
          continue; // not counted: the other targets still get their tries
        }
        failures++;
        o.rotation.advance();
        if (action.kind === 'rate-limited') {
          o.rotation.markRateLimited(target, outcome.error);
          const wait = o.rotation.takeRateLimitWait();
          if (wait > 0 && failures < o.maxRetries) {
            o.recorder.log({
              severity: 'WRN',
              direction: 'response',
              type: 'llm',
              remoteIdentifier: 'agent:rate-limit',
              message: `every model is rate-limited; waiting ${wait} ms`,
            });
            try {
              await o.sleep(wait, o.signal);
            } catch {
              return { kind: 'end', exitCode: 'EXIT-ABORTED', error: 'the session was cancelled' };
            }
          }
        }
        continue;
      }
      modelErrorsOnly = false;
      // What we estimated for this request: the conversation's running total, the tool
      // definitions (counted once per process) and the notice by the heuristic (it is new
      // every turn; counting it exactly would cost more than everything else the loop does).
      const noticeText = request.messages.at(-1)?.content ?? '';
      const rawEstimate =
        o.guard.rawConversationTokens + heuristicTokens(noticeText) + o.estimator.rawTools(tools);
      o.estimator.observe(outcome.usage?.inputTokens ?? 0, rawEstimate);
      state.lastStopReason = outcome.rawStopReason ?? outcome.stopReason;
      const end = await this.afterAnswer(outcome, turnNode, isFinal);
      if (end !== undefined) return end;
      failures++;
      o.rotation.advance();
      retrySlugs = [this.lastRetrySlug];
    }
    if (!isFinal) return { kind: 'force-final', reason: 'retry_exhaustion' };
    return this.finalTurnFailed(modelErrorsOnly);
  }

  private lastRetrySlug = '';

  /** Handles a successful answer. Returns how the turn ends, or undefined to retry within it. */
  private async afterAnswer(
    outcome: AttemptSuccess,
    turnNode: OpNode,
    isFinal: boolean,
  ): Promise<TurnEnd | undefined> {
    const o = this.o;
    const { state } = o;
    const assistant: AssistantMessage = {
      role: 'assistant',
      content: outcome.text,
      ...(outcome.reasoning.length > 0 ? { reasoning: outcome.reasoning } : {}),
      ...(outcome.toolCalls.length > 0 ? { toolCalls: outcome.toolCalls } : {}),
    };
    for (const ignored of outcome.slot.ignored) {
      o.recorder.log({
        severity: 'WRN',
        direction: 'response',
        type: 'llm',
        remoteIdentifier: 'agent:final-report',
        message: `ignored tag ${ignored}`,
      });
    }
    const adoption = adoptFinalReport(outcome, o.expected, {
      isFinalTurn: isFinal,
      maxOutputTokens: o.sampling.maxOutputTokens,
    });
    if (adoption.kind === 'committed') {
      state.finalReportAttempts++;
      this.push(assistant);
      this.answerOtherCalls(outcome, 'Final report captured.');
      state.finalReport = adoption.report;
      state.reportStreamed = adoption.source === 'xml' && outcome.slot.streamedContent;
      for (const warning of [...adoption.warnings, ...adoption.repairs]) {
        o.recorder.log({
          severity: 'WRN',
          direction: 'response',
          type: 'llm',
          remoteIdentifier: 'agent:final-report',
          message: warning,
        });
      }
      o.recorder.account({
        type: 'tool',
        timestamp: o.now(),
        status: 'ok',
        latency: 0,
        mcpServer: 'agent',
        command: adoption.source === 'xml' ? `${FINAL_REPORT_TOOL}_xml` : FINAL_REPORT_TOOL,
        charactersIn: outcome.slot.payload.length,
        charactersOut: 12,
        source: adoption.source === 'xml' ? 'xml' : 'native',
        turn: state.turn,
        agentPath: o.agentPath,
      });
      return { kind: 'report' };
    }
    if (adoption.kind === 'invalid') {
      state.finalReportAttempts++;
      state.finalReportFailedEver = true;
      this.push(assistant);
      this.answerOtherCalls(outcome, `(tool failed: not run: the final report was rejected)`);
      this.push({
        role: 'user',
        content: invalidReportNotice(o.nonce, adoption.reason, adoption.diagnostics),
      });
      o.recorder.log({
        severity: 'WRN',
        direction: 'response',
        type: 'llm',
        remoteIdentifier: 'agent:final-report',
        message: `final report rejected (${adoption.slug}): ${adoption.reason}${adoption.diagnostics.length > 0 ? `; ${adoption.diagnostics.join('; ')}` : ''}`,
      });
      this.lastRetrySlug = adoption.slug;
      return undefined;
    }
    if (outcome.toolCalls.length > 0 && !isFinal) {
      this.push(assistant);
      const result = await o.executor.runTurn(outcome.toolCalls, turnNode);
      for (const message of result.messages) this.push(message);
      state.taskStatusOnlyTurns = result.onlyTaskStatus ? state.taskStatusOnlyTurns + 1 : 0;
      const forceFinal =
        result.forceFinal ?? (state.taskStatusOnlyTurns >= 2 ? 'task_status_only' : undefined);
      return { kind: 'tools', ...(forceFinal === undefined ? {} : { forceFinal }) };
    }
    this.push(assistant);
    if (outcome.toolCalls.length > 0) {
      this.answerOtherCalls(outcome, '(tool failed: no tools can run on the final turn)');
      this.push({ role: 'user', content: toolsOnFinalTurnNotice(o.nonce) });
      this.lastRetrySlug = 'tools_on_final_turn';
    } else if (outcome.text.trim().length === 0 && outcome.reasoning.length === 0) {
      this.push({ role: 'user', content: EMPTY_ANSWER_NOTICE });
      this.lastRetrySlug = 'empty_answer';
    } else {
      this.push({ role: 'user', content: plainTextNotice(o.nonce) });
      this.lastRetrySlug = 'plain_text';
    }
    return undefined;
  }

  /** Every tool call in the conversation gets an answer, so it stays valid for every provider. */
  private answerOtherCalls(outcome: AttemptSuccess, text: string): void {
    for (const call of outcome.toolCalls) {
      const message: ToolResultMessage = {
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: call.name === FINAL_REPORT_TOOL ? text : '(tool failed: not run)',
      };
      this.push(message);
    }
  }

  private buildRequest(
    target: ModelTarget,
    tools: readonly ToolDefinition[],
    isFinal: boolean,
    attempt: number,
  ): ModelRequest {
    const o = this.o;
    const window = o.guard.windowFor(target);
    const used = o.estimator.corrected(o.guard.rawConversationTokens);
    const notice = renderTurnNotice({
      nonce: o.nonce,
      turn: o.state.turn,
      maxTurns: o.maxTurns,
      attempt,
      maxAttempts: o.maxRetries,
      contextPercent: Math.min(100, Math.round((used / Math.max(1, window)) * 100)),
      expected: o.expected,
      forcedFinal: isFinal ? o.state.forcedFinal : undefined,
      allowedTools: isFinal ? [] : tools.map((t) => t.name),
    });
    const messages: ConversationMessage[] = [...o.state.conversation, { role: 'user', content: notice }];
    return {
      messages,
      ...(tools.length > 0 ? { tools, toolChoice: 'auto' as const } : {}),
      ...o.sampling,
    };
  }

  private noTargetLeft(isFinal: boolean): TurnEnd {
    const exitCode = this.o.rotation.exhaustedExitCode();
    if (exitCode === 'EXIT-TOKEN-LIMIT' && !isFinal) return { kind: 'force-final', reason: 'context' };
    const what: Partial<Record<ExitCode, string>> = {
      'EXIT-AUTH-FAILURE': 'every model rejected the credentials',
      'EXIT-QUOTA-EXCEEDED': 'every model is out of quota',
      'EXIT-TOKEN-LIMIT': 'the conversation no longer fits any model',
    };
    return { kind: 'end', exitCode, error: what[exitCode] ?? 'no model could be used' };
  }

  private finalTurnFailed(modelErrorsOnly: boolean): TurnEnd {
    const { state, maxRetries } = this.o;
    const reason = state.forcedFinal ?? 'max_turns';
    if (reason === 'context') {
      return {
        kind: 'end',
        exitCode: 'EXIT-TOKEN-LIMIT',
        error: 'the context window filled up and the final turn gave no report',
      };
    }
    if (reason === 'user_stop') {
      return {
        kind: 'end',
        exitCode: 'EXIT-USER-STOP',
        error: 'stopped by the user; the final turn gave no report',
      };
    }
    if (modelErrorsOnly) {
      return {
        kind: 'end',
        exitCode: 'EXIT-NO-LLM-RESPONSE',
        error: `no model answered on the final turn after ${maxRetries} attempts`,
      };
    }
    if (state.finalReportFailedEver) {
      return {
        kind: 'end',
        exitCode: 'EXIT-INVALID-FINAL-REPORT',
        error: 'the final report was invalid on every attempt',
      };
    }
    if (reason === 'max_turns') {
      return {
        kind: 'end',
        exitCode: 'EXIT-MAX-TURNS-NO-RESPONSE',
        error: 'the turn limit was reached without a final report',
      };
    }
    return {
      kind: 'end',
      exitCode: 'EXIT-RETRY-EXHAUSTION',
      error: `no final report after the final turn (${reason})`,
    };
  }
}
