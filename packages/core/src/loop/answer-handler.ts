import {
  type ApprovalDecision,
  type AssistantMessage,
  type ConversationMessage,
  type ExpectedOutput,
  FINAL_REPORT_TOOL,
  type FinalReportSource,
  isFinalReportName,
  type ModelRequest,
  type OpNode,
  REPORT_BACK_TOOL,
  type ToolCall,
  type ToolResultMessage,
} from '@agent/protocol';
import type { GuardrailRunner } from '../guardrails/guardrail-runner.js';
import type { TurnJournal } from '../journal/turn-journal.js';
import type { SessionRecorder } from '../observe/recorder.js';
import type { ApprovalGate } from '../tools/approval-gate.js';
import type { ResultSizer } from '../tools/result-sizer.js';
import type { ToolExecutor, TurnToolsOutcome } from '../tools/tool-executor.js';
import { type ArgumentsChecked, guardArguments } from './arguments-guard.js';
import { answerCallsBesideReport, NOT_ON_FINAL_TURN } from './calls-beside-report.js';
import type { AttemptSuccess } from './model-attempt.js';
import {
  EMPTY_ANSWER_NOTICE,
  ignoredTagsNotice,
  invalidReportNotice,
  plainTextNotice,
  reportBackRejection,
  toolsOnFinalTurnNotice,
} from './notices.js';
import { childrenPause } from './paused-children.js';
import { type Adoption, adoptFinalReport } from './report-adoption.js';
import { guardReport } from './report-guard.js';
import { reportCharactersIn } from './report-size.js';
import { rewrittenReportMessage } from './rewritten-report-message.js';
import type { SessionState } from './session-state.js';
import { retractStreamed, sendHeldOutside } from './slot-reader.js';
import { ABORTED, guardrailEnd, type TurnEnd } from './turn-end.js';

/** What the handler uses of the turn loop's options (declared here, so the two files form no cycle). */
export interface AnswerHandlerOptions {
  state: SessionState;
  recorder: SessionRecorder;
  executor: ToolExecutor;
  sizer: Pick<ResultSizer, 'noCompactionThisTurn'>;
  expected: ExpectedOutput;
  nonce: string;
  sampling: Pick<ModelRequest, 'maxOutputTokens'>;
  agentPath: string;
  now: () => number;
  signal: AbortSignal;
  /** The session offers `report_back` (seed 004). */
  reportBack: boolean;
  /** A sub-agent: an answer with no tool call and no report is its answer (seed 004, decision 4). */
  answerFromLastMessage: boolean;
  /** Set when some tool needs approval. */
  approvals?: ApprovalGate;
  /** Set when the session journals its turns (`onJournal`). */
  journal?: TurnJournal;
  /** Set when the session has guardrails. */
  guards?: GuardrailRunner;
}

/**
 * What the loop does with an answer that arrived: commit a report, reject one with the reasons,
 * run the tools it asked for, or tell the model why plain text or silence does not count.
 */
export class AnswerHandler {
  /** Why the last answer was retried, for the next `turn_started` event. */
  lastRetrySlug = '';

  constructor(
    private readonly o: AnswerHandlerOptions,
    private readonly push: (message: ConversationMessage) => void,
  ) {}

  /** Handles a successful answer. Returns how the turn ends, or undefined to retry within it. */
  async handle(outcome: AttemptSuccess, turnNode: OpNode, isFinal: boolean): Promise<TurnEnd | undefined> {
    const o = this.o;
    // Optional fields set after the literal (same keys, same order): no conditional spreads per answer.
    const assistant: AssistantMessage = { role: 'assistant', content: outcome.text };
    if (outcome.reasoning.length > 0) assistant.reasoning = outcome.reasoning;
    if (outcome.toolCalls.length > 0) assistant.toolCalls = outcome.toolCalls;
    // Durable before anything acts on it: a resumed session replays it instead of asking again.
    if (o.journal !== undefined)
      await o.journal.answered(o.state.turn, assistant, outcome.accounting, outcome.replayed);
    for (const ignored of outcome.slot.ignored) {
      o.recorder.log({
        severity: 'WRN',
        direction: 'response',
        type: 'llm',
        remoteIdentifier: 'agent:final-report',
        message: `ignored tag ${ignored.tag}: ${ignored.reason}`,
      });
    }
    const adoption = adoptFinalReport(outcome, o.expected, {
      isFinalTurn: isFinal,
      maxOutputTokens: o.sampling.maxOutputTokens,
      reportBack: o.reportBack,
      answerFromLastMessage: o.answerFromLastMessage,
    });
    // Held outside text (it might have been the report) goes out now, unless it is the report.
    if (adoption.kind !== 'committed' || adoption.source !== 'text')
      sendHeldOutside(o.recorder, outcome.slot);
    if (adoption.kind === 'committed') return this.commit(adoption, outcome, assistant, turnNode, isFinal);
    if (adoption.kind === 'invalid') return this.reject(adoption, outcome, assistant);
    if (outcome.toolCalls.length > 0 && !isFinal) {
      this.push(assistant);
      return this.runTools(outcome.toolCalls, turnNode);
    }
    this.push(assistant);
    if (outcome.toolCalls.length > 0) {
      this.answerOtherCalls(outcome, NOT_ON_FINAL_TURN);
      this.push({ role: 'user', content: toolsOnFinalTurnNotice(o.nonce) });
      this.lastRetrySlug = 'tools_on_final_turn';
    } else if (outcome.text.trim().length === 0 && outcome.reasoning.length === 0) {
      this.push({ role: 'user', content: EMPTY_ANSWER_NOTICE });
      this.lastRetrySlug = 'empty_answer';
    } else if (outcome.slot.ignored.length > 0) {
      // A report tag was there but not taken: "plain text" would make the model repeat it.
      this.push({ role: 'user', content: ignoredTagsNotice(o.nonce, outcome.slot.ignored) });
      this.lastRetrySlug = 'ignored_tag';
    } else {
      this.push({ role: 'user', content: plainTextNotice(o.nonce) });
      this.lastRetrySlug = 'plain_text';
    }
    return undefined;
  }

  /**
   * Runs the calls of an answer (already in the conversation) once the approval gate let them:
   * a denied call is answered with the reason; undecided calls without an approver pause the
   * session before any of them runs. Also how a resumed paused turn finishes.
   */
  async runTools(calls: readonly ToolCall[], turnNode: OpNode): Promise<TurnEnd> {
    const o = this.o;
    const { state } = o;
    let denied: ReadonlyMap<string, string> | undefined;
    let decisions: Record<string, ApprovalDecision> = {};
    let checked: ArgumentsChecked | undefined;
    if (o.guards?.checks('arguments') === true) {
      checked = await guardArguments(o.guards, calls, turnNode);
      if (checked.trip !== undefined) return guardrailEnd(checked.trip, o.signal);
    }
    const running = checked?.calls ?? calls;
    if (o.approvals !== undefined) {
      const gate = await o.approvals.review(running, checked?.asks);
      if (gate.kind === 'pause') {
        return {
          kind: 'pause',
          paused: { turnCalls: [...calls], pending: gate.pending, decisions: gate.decisions },
        };
      }
      denied = gate.denied;
      decisions = gate.decisions;
    }
    if (checked !== undefined && checked.denied.size > 0)
      denied = new Map([...checked.denied, ...(denied ?? [])]);
    const result = await o.executor.runTurn(running, turnNode, denied);
    o.approvals?.markPolicies(turnNode);
    // A sub-agent waits for a decision: the whole tree pauses; the turn runs again on resume.
    if (result.paused !== undefined) return childrenPause(calls, result.paused, decisions);
    for (const message of result.messages) this.push(message);
    if (result.guardrail !== undefined) return guardrailEnd(result.guardrail, o.signal);
    if (result.endSession !== undefined) return this.endByTool(result.endSession);
    state.taskStatusOnlyTurns = result.onlyTaskStatus ? state.taskStatusOnlyTurns + 1 : 0;
    const forceFinal = result.forceFinal ?? (state.taskStatusOnlyTurns >= 2 ? 'task_status_only' : undefined);
    return forceFinal === undefined ? TOOLS_RAN : { kind: 'tools', forceFinal };
  }

  /**
   * A valid report: the answer's other tool calls run first (their messages, events and
   * accounting are recorded), then the report commits and the turn ends the session.
   */
  private async commit(
    adoption: Committed,
    outcome: AttemptSuccess,
    assistant: AssistantMessage,
    turnNode: OpNode,
    isFinal: boolean,
  ): Promise<TurnEnd> {
    const o = this.o;
    const { state } = o;
    state.finalReportAttempts++;
    let report = adoption.report;
    let reportRewritten = outcome.slot.streamHeld;
    let kept = assistant;
    if (o.guards?.checks('report') === true) {
      const guarded = await guardReport(o.guards, report, o.expected, turnNode);
      if (guarded.kind === 'trip') {
        // The blocked report reaches no one: what streamed is taken back, the answer is not kept.
        retractStreamed(o.recorder, outcome.slot.streamedChars, 'guardrail', guarded.message);
        return guardrailEnd(guarded.trip, o.signal);
      }
      report = guarded.report;
      reportRewritten ||= guarded.rewritten;
      if (guarded.rewritten) kept = rewrittenReportMessage(assistant, report);
    }
    this.push(kept);
    o.sizer.noCompactionThisTurn();
    const beside = await this.besideReport(outcome, turnNode, isFinal);
    if ('kind' in beside) {
      retractStreamed(o.recorder, outcome.slot.streamedChars, 'guardrail', beside.error);
      return beside;
    }
    for (const message of beside) this.push(message);
    if (o.signal.aborted) {
      // The report streamed before its tools ran; it never commits, so consumers drop it.
      retractStreamed(
        o.recorder,
        outcome.slot.streamedChars,
        'aborted',
        'the session was aborted while the tools beside the report ran',
      );
      return ABORTED;
    }
    state.finalReport = report;
    state.reportStreamed = adoption.source === 'xml' && outcome.slot.streamedContent;
    if (reportRewritten && state.reportStreamed) {
      // What streamed is not the report: taken back, and the committed one sent whole.
      retractStreamed(o.recorder, outcome.slot.streamedChars, 'guardrail', 'a guardrail rewrote the report');
      state.reportStreamed = false;
    }
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
      command: reportCommand(adoption.source),
      charactersIn: reportCharactersIn(outcome, adoption.source),
      charactersOut: 12,
      source: adoption.source === 'xml' ? 'xml' : 'native',
      report: true,
      turn: state.turn,
      agentPath: o.agentPath,
    });
    return { kind: 'report' };
  }

  /**
   * The messages of the calls beside a committed report: run (after their `arguments`
   * guardrails, an `ask` cannot wait: denied) unless they need approval; or how the run ends
   * when a guardrail blocked one.
   */
  private async besideReport(
    outcome: AttemptSuccess,
    turnNode: OpNode,
    isFinal: boolean,
  ): Promise<ToolResultMessage[] | Extract<TurnEnd, { kind: 'end' }>> {
    const o = this.o;
    let calls: readonly ToolCall[] = outcome.toolCalls;
    let denied = o.approvals?.unreviewable(outcome.toolCalls);
    if (!isFinal && o.guards?.checks('arguments') === true) {
      const checked = await guardArguments(o.guards, calls, turnNode);
      if (checked.trip !== undefined)
        return guardrailEnd(checked.trip, o.signal) as Extract<TurnEnd, { kind: 'end' }>;
      calls = checked.calls;
      const refused = new Map([...checked.denied, ...(denied ?? [])]);
      for (const [id, reason] of checked.asks)
        refused.set(id, `needs approval (${reason}) and came beside the final report`);
      denied = refused;
    }
    const answered = await answerCallsBesideReport(
      {
        calls,
        isReportCall: (call) =>
          isFinalReportName(call.name) || (o.reportBack && call.name === REPORT_BACK_TOOL),
        reportAnswer: 'Final report captured.',
        isFinal,
        ...(denied === undefined ? {} : { denied }),
      },
      o.executor,
      turnNode,
    );
    o.approvals?.markPolicies(turnNode);
    if (answered.guardrail !== undefined)
      return guardrailEnd(answered.guardrail, o.signal) as Extract<TurnEnd, { kind: 'end' }>;
    return answered.messages;
  }

  /** A tool answered for the session: its report is committed as it is (the tool vouches for it). */
  private endByTool(end: NonNullable<TurnToolsOutcome['endSession']>): TurnEnd {
    const { report } = end;
    this.o.state.finalReport = {
      status: report.status ?? 'success',
      format: this.o.expected.format,
      ...(report.content === undefined ? {} : { content: report.content }),
      ...(report.content_json === undefined ? {} : { content_json: report.content_json }),
      ...(report.metadata === undefined ? {} : { metadata: report.metadata }),
      ts: this.o.now(),
      origin: 'declared',
    };
    this.o.recorder.log({
      severity: 'VRB',
      direction: 'response',
      type: 'llm',
      remoteIdentifier: 'agent:final-report',
      message: `the tool ${end.tool} ended the session with its result`,
    });
    return { kind: 'report' };
  }

  /**
   * A rejected report: the model is told why and the turn retries. A `report_back` call is
   * answered with the reasons (its tool message); a report in the tag gets a notice.
   */
  private reject(adoption: Rejected, outcome: AttemptSuccess, assistant: AssistantMessage): undefined {
    const o = this.o;
    const { state } = o;
    state.finalReportAttempts++;
    state.finalReportFailedEver = true;
    state.lastRejected = {
      payload: adoption.payload,
      slug: adoption.slug,
      reason: adoption.reason,
      diagnostics: adoption.diagnostics,
    };
    if (adoption.parsed !== undefined) state.lastParsed = adoption.parsed;
    // Only a text-format report streams before it is judged; if it was refused, say so.
    retractStreamed(o.recorder, outcome.slot.streamedChars, adoption.slug, adoption.reason);
    this.push(assistant);
    const back = adoption.source === 'report_back' ? adoption.call : undefined;
    this.answerOtherCalls(
      outcome,
      `(tool failed: not run: the final report was rejected)`,
      back === undefined ? undefined : { id: back.id, text: reportBackRejection(adoption) },
    );
    if (back === undefined) {
      this.push({
        role: 'user',
        content: invalidReportNotice(o.nonce, adoption.reason, adoption.diagnostics),
      });
    }
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

  /** Every tool call in the conversation gets an answer, so it stays valid for every provider. */
  private answerOtherCalls(
    outcome: AttemptSuccess,
    text: string,
    special?: { id: string; text: string },
  ): void {
    for (const call of outcome.toolCalls) {
      const message: ToolResultMessage = {
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content:
          special !== undefined && call.id === special.id
            ? special.text
            : isFinalReportName(call.name)
              ? text
              : '(tool failed: not run)',
      };
      this.push(message);
    }
  }
}

/** A turn whose tools ran and that goes on: one object, read and never changed. */
const TOOLS_RAN: TurnEnd = Object.freeze({ kind: 'tools' });

type Committed = Extract<Adoption, { kind: 'committed' }>;
type Rejected = Extract<Adoption, { kind: 'invalid' }>;

/** The accounting `command` of a committed report, by how it came (seed 003: `_xml` for the tag). */
function reportCommand(source: FinalReportSource): string {
  if (source === 'xml') return `${FINAL_REPORT_TOOL}_xml`;
  return source === 'report_back' ? REPORT_BACK_TOOL : FINAL_REPORT_TOOL;
}
