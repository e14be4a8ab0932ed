import { processFinalReport } from '@agent/final-report';
import {
  BATCH_TOOL,
  type ConversationMessage,
  type ExpectedOutput,
  FINAL_REPORT_SHORT_NAME,
  FINAL_REPORT_TOOL,
  type FinalReport,
  TASK_STATUS_TOOL,
  type ToolResultMessage,
} from '@agent/protocol';
import type { SessionRecorder } from '../observe/recorder.js';
import type { SessionState } from './session-state.js';

/** Tools whose results are the session's own bookkeeping, never an answer. */
const NOT_AN_ANSWER = new Set([FINAL_REPORT_TOOL, FINAL_REPORT_SHORT_NAME, TASK_STATUS_TOOL, BATCH_TOOL]);
/** How a result stored behind a handle starts (seed 001's text, kept character for character). */
const HANDLE_MESSAGE = 'Tool output is too large (';

export interface ToolMessageAdoption {
  report: FinalReport;
  message: ToolResultMessage;
  warnings: string[];
}

/**
 * Seed 000, "From Tool Message": when the final turn ends without a report, the last tool
 * result that succeeded (a real tool's, not the session's bookkeeping) becomes the report, in
 * the expected format, through the same processor as any report (a `json` session adopts it
 * only when it is valid JSON for the schema). Undefined when there is none to adopt.
 */
export function adoptFromToolMessage(
  conversation: readonly ConversationMessage[],
  expected: ExpectedOutput,
): ToolMessageAdoption | undefined {
  const message = lastUsableToolResult(conversation);
  if (message === undefined) return undefined;
  const processed = processFinalReport(
    { source: 'xml', attributes: { status: 'success' }, payload: message.content.trim() },
    expected,
    { origin: 'adopted-tool-message' },
  );
  if (!processed.ok) return undefined;
  return { report: processed.report, message, warnings: [...processed.warnings, ...processed.repairs] };
}

function lastUsableToolResult(conversation: readonly ConversationMessage[]): ToolResultMessage | undefined {
  for (let index = conversation.length - 1; index >= 0; index--) {
    const message = conversation[index]!;
    if (message.role !== 'tool') continue;
    if (message.isError === true || NOT_AN_ANSWER.has(message.toolName)) continue;
    const text = message.content.trim();
    if (text.length === 0 || text.startsWith('(tool failed:') || text.startsWith(HANDLE_MESSAGE)) continue;
    return message;
  }
  return undefined;
}

/**
 * The final turn's last resort before ending without a report: adopt the last tool result
 * (above) and commit it, with a warning that says where the report came from. True when a
 * report was committed.
 */
export function commitToolMessageReport(
  state: SessionState,
  expected: ExpectedOutput,
  recorder: SessionRecorder,
): boolean {
  const adopted = adoptFromToolMessage(state.conversation, expected);
  if (adopted === undefined) return false;
  state.finalReport = adopted.report;
  state.reportStreamed = false;
  const { toolName, toolCallId } = adopted.message;
  for (const message of [
    `the final turn gave no report; the result of ${toolName} (call ${toolCallId}) is adopted as the report`,
    ...adopted.warnings,
  ]) {
    recorder.log({
      severity: 'WRN',
      direction: 'response',
      type: 'llm',
      remoteIdentifier: 'agent:final-report',
      message,
    });
  }
  return true;
}
