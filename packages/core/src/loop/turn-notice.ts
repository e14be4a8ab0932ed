import type { ExpectedOutput, ForcedFinalReason } from '@agent/protocol';
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
}

/** The ephemeral XML-NEXT notice of this turn (never stored in the conversation). */
export function renderTurnNotice(input: TurnNoticeInput): string {
  return renderXmlNext({
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
}
