import { FINAL_REPORT_TOOL } from '@agent/protocol';
import type { AttemptSuccess } from './model-attempt.js';
import type { ReportSource } from './report-adoption.js';

/**
 * `charactersIn` of a final report's accounting entry (seed 002: "charactersIn reflects
 * parameter size"): the FINAL tag's body, the JSON arguments of a native `agent__final_report`
 * call as the model sent them, or the plain text adopted on the final turn.
 */
export function reportCharactersIn(outcome: AttemptSuccess, source: ReportSource): number {
  if (source === 'xml') return outcome.slot.payload.length;
  if (source === 'text') return outcome.slot.outsideText.trim().length;
  const call = outcome.toolCalls.find((c) => c.name === FINAL_REPORT_TOOL);
  if (call === undefined) return 0;
  return (call.rawArguments ?? JSON.stringify(call.arguments)).length;
}
