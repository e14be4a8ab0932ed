import { type FinalReportSource, isFinalReportName, REPORT_BACK_TOOL } from '@agent/protocol';
import type { AttemptSuccess } from './model-attempt.js';

/**
 * `charactersIn` of a final report's accounting entry (seed 002: "charactersIn reflects
 * parameter size"): the FINAL tag's body, the JSON arguments of the native `agent__final_report`
 * or `report_back` call as the model sent them, or the plain text adopted on the final turn.
 */
export function reportCharactersIn(outcome: AttemptSuccess, source: FinalReportSource): number {
  if (source === 'xml') return outcome.slot.payload.length;
  if (source === 'text') return outcome.slot.outsideText.trim().length;
  const isReportCall =
    source === 'report_back' ? (name: string) => name === REPORT_BACK_TOOL : isFinalReportName;
  const call = outcome.toolCalls.find((c) => isReportCall(c.name));
  if (call === undefined) return 0;
  return (call.rawArguments ?? JSON.stringify(call.arguments)).length;
}
