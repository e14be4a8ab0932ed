import {
  type AssistantMessage,
  type ConversationMessage,
  type ExpectedOutput,
  FINAL_REPORT_TOOL,
  type ModelRequest,
  type OpNode,
  type ToolResultMessage,
} from '@agent/protocol';
import type { SessionRecorder } from '../observe/recorder.js';
import type { ToolExecutor, TurnToolsOutcome } from '../tools/tool-executor.js';
import type { AttemptSuccess } from './model-attempt.js';
import {
  EMPTY_ANSWER_NOTICE,
  invalidReportNotice,
  plainTextNotice,
  toolsOnFinalTurnNotice,
} from './notices.js';
import { adoptFinalReport } from './report-adoption.js';
import type { SessionState } from './session-state.js';
import type { TurnEnd } from './turn-end.js';

/** What the handler uses of the turn loop's options (declared here, so the two files form no cycle). */
export interface AnswerHandlerOptions {
  state: SessionState;
  recorder: SessionRecorder;
  executor: ToolExecutor;
  expected: ExpectedOutput;
  nonce: string;
  sampling: Pick<ModelRequest, 'maxOutputTokens'>;
  agentPath: string;
  now: () => number;
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
      if (result.endSession !== undefined) return this.endByTool(result.endSession);
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
}
