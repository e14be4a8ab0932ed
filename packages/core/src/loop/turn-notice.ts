import { type ExpectedOutput, type ForcedFinalReason, REPORT_BACK_TOOL } from '@agent/protocol';
import { renderXmlNext } from '@agent/xml-transport';

export interface TurnNoticeInput {
  nonce: string;
  turn: number;
  maxTurns: number;
  attempt: number;
  maxAttempts: number;
  contextPercent: number;
  expected: ExpectedOutput;
  forcedFinal: ForcedFinalReason | undefined;
  allowedTools: readonly string[];
  /** The session offers `report_back`: the notice says the report may go through it. */
  reportBack?: boolean;
}

/** Added to the notice of a session with `report_back` (seed 004). */
export const REPORT_BACK_NOTICE = `- Or, instead of the tag, call the ${REPORT_BACK_TOOL} tool natively with the payload as its arguments (no wrapper, no status): that ends the task too.`;

/** The ephemeral XML-NEXT notice of this turn (never stored in the conversation). */
export function renderTurnNotice(input: TurnNoticeInput): string {
  const notice = renderXmlNext({
    nonce: input.nonce,
    turn: input.turn,
    maxTurns: input.maxTurns,
    attempt: input.attempt,
    maxAttempts: input.maxAttempts,
    contextPercent: input.contextPercent,
    format: input.expected.format,
    ...(input.expected.schema === undefined ? {} : { schema: input.expected.schema }),
    ...(input.forcedFinal === undefined
      ? {}
      : { forcedFinal: { reason: input.forcedFinal, allowedTools: input.allowedTools } }),
  });
  return input.reportBack === true ? `${notice}\n${REPORT_BACK_NOTICE}` : notice;
}
