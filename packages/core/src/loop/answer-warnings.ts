import { isFinalReportName, TASK_STATUS_TOOL } from '@agent/protocol';
import type { SessionRecorder } from '../observe/recorder.js';
import type { AttemptSuccess } from './model-attempt.js';

/**
 * Seed 000, "progress pairing": `agent__task_status` in the same answer as a final report (the
 * FINAL tag or a native `agent__final_report` call) is logged as a warning: a finalizing turn
 * should not send more progress.
 */
export function warnProgressPairing(outcome: AttemptSuccess, recorder: SessionRecorder): void {
  // Read once per answer: one pass over the calls, no list of their names.
  let status = false;
  let reportCall = false;
  for (const call of outcome.toolCalls) {
    if (call.name === TASK_STATUS_TOOL) status = true;
    else if (isFinalReportName(call.name)) reportCall = true;
  }
  if (!status) return;
  if (!outcome.slot.found && !reportCall) return;
  recorder.log({
    severity: 'WRN',
    direction: 'response',
    type: 'llm',
    remoteIdentifier: 'agent:final-report',
    message: `${TASK_STATUS_TOOL} was called in the same turn as the final report; a finalizing turn should not send progress updates`,
  });
}

/** Seed 002, "synthetic retry": plain text with neither tool calls nor a report is retried with a warning. */
export function warnPlainTextRetry(recorder: SessionRecorder, label: string): void {
  recorder.log({
    severity: 'WRN',
    direction: 'response',
    type: 'llm',
    remoteIdentifier: label,
    message:
      'synthetic retry: the answer was plain text without tool calls or a final report; the model is told to call tools or send its final report',
  });
}
