import { rejectedReport, syntheticFailureReport } from '@agent/final-report';
import type { AgentResult, ExitCode, ExpectedOutput, FinalReport, SessionSnapshot } from '@agent/protocol';
import type { SessionState } from './loop/session-state.js';
import type { OpTreeBuilder } from './observe/op-tree.js';
import type { SessionRecorder } from './observe/recorder.js';
import { finSummaries } from './observe/summaries.js';

/** What a session's result is built from; the runner fills it in as the session goes. */
export interface SessionEnding {
  sessionId: string;
  state: SessionState;
  recorder: SessionRecorder;
  opTree: OpTreeBuilder;
  expected: ExpectedOutput;
  now: () => number;
  inputRejected: boolean;
  pausedSnapshot: SessionSnapshot | undefined;
}

/**
 * Builds the result: the committed report (streamed once), else the last refused attempt or a
 * synthetic failure report, the closing log lines and the finished op tree.
 */
export function finishSession(end: SessionEnding): AgentResult {
  const { state, recorder } = end;
  const exitCode: ExitCode = state.exitCode ?? 'EXIT-UNCAUGHT-EXCEPTION';
  const committed = state.finalReport;
  if (committed !== undefined) emitCommitted(state, recorder, committed);
  // The schema missed on every attempt: the last parsed one is the session's report (not a success).
  const mismatched = exitCode === 'EXIT-FINAL-REPORT-SCHEMA-MISMATCH' ? state.lastParsed : undefined;
  if (mismatched !== undefined) emitCommitted(state, recorder, mismatched);
  const finalReport = committed ?? mismatched ?? fallbackReport(end);
  const success = committed !== undefined;
  recorder.log({
    severity: success ? 'VRB' : 'ERR',
    direction: 'response',
    type: 'llm',
    remoteIdentifier: `agent:${exitCode}`,
    message: endingMessage(state, exitCode),
  });
  for (const line of finSummaries(recorder.accounting)) recorder.log(line);
  const tree = end.opTree.finish(success ? 'ok' : 'failed', success ? undefined : state.error);
  recorder.emit({ type: 'op_tree', tree });
  // Keys in the order results always had: success, exitCode, error, inputRejected, finalReport, ...
  const rest = {
    conversation: state.conversation,
    logs: recorder.logs,
    accounting: recorder.accounting,
    opTree: tree,
    sessionId: end.sessionId,
  };
  if (committed !== undefined) return { success: true, exitCode, finalReport: committed, ...rest };
  return {
    success: false,
    exitCode,
    error: state.error ?? `the session ended without a final report (${exitCode})`,
    ...(end.inputRejected ? { inputRejected: true as const } : {}),
    ...(state.guardrail === undefined ? {} : { guardrail: state.guardrail }),
    ...(finalReport === undefined ? {} : { finalReport }),
    ...(state.paused === undefined ? {} : { pendingApprovals: state.paused.pending }),
    ...(end.pausedSnapshot === undefined ? {} : { snapshot: end.pausedSnapshot }),
    ...rest,
  };
}

/** Streams the report's text unless the loop already did, then announces the report. */
function emitCommitted(state: SessionState, recorder: SessionRecorder, committed: FinalReport): void {
  if (!state.reportStreamed) {
    const text =
      committed.content ??
      (committed.content_json === undefined ? '' : JSON.stringify(committed.content_json));
    if (text.length > 0) recorder.emit({ type: 'output', text }, 'finalize');
  }
  recorder.emit({ type: 'final_report', report: committed });
}

/** The report a session without a committed one hands back, if any. */
function fallbackReport(end: SessionEnding): FinalReport | undefined {
  const { state } = end;
  if (state.lastRejected !== undefined) {
    // Every attempt was refused: the last one is kept, marked, for the caller; it is not a
    // report of the session, so no `final_report` event says it is.
    return rejectedReport({ format: end.expected.format, ...state.lastRejected, now: end.now });
  }
  if (state.finalReportFailedEver) return undefined;
  const synthetic: FinalReport = syntheticFailureReport({
    reason: state.error ?? 'the session ended without a final report',
    turnsCompleted: Math.max(0, state.turn - 1),
    finalReportAttempts: state.finalReportAttempts,
    lastStopReason: state.lastStopReason === undefined ? undefined : String(state.lastStopReason),
    format: end.expected.format,
  });
  end.recorder.emit({ type: 'final_report', report: synthetic });
  return synthetic;
}

/** The ending marker's text; a report after the context guard fired says so (seed 002). */
function endingMessage(state: SessionState, exitCode: ExitCode): string {
  const committed = state.finalReport;
  if (committed === undefined) return state.error ?? exitCode;
  const after = state.forcedFinal === 'context' ? ' after the context guard forced the final turn' : '';
  return `final report committed (${committed.status})${after}`;
}
