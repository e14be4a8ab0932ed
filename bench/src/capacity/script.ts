// What the capacity suite's model does: a task-status tool call on every turn but the last,
// which streams the report in a known number of text deltas (the "tokens" the face forwards).
import { type ScriptedAnswer, streamedFinalReport } from '@agent/testkit';
import { reportPieces } from '../queue-soak-effects/script.js';

export interface CapacityScript {
  /** Turns of every session: tool-call turns, then the streamed report. */
  turns: number;
  /** Text deltas of the report (the streamed tokens). */
  reportTokens: number;
  /** Scripted model latency before each answer. */
  delayMs: number;
  /** Pause between the report's tokens: a real model streams tens of tokens a second, not all at once. */
  tokenDelayMs: number;
}

/** The model's answer to `session`'s `turn`. */
export function capacityAnswer(session: string, turn: number, script: CapacityScript): ScriptedAnswer {
  if (turn < script.turns) {
    return {
      delayMs: script.delayMs,
      toolCalls: [
        {
          name: 'agent__task_status',
          arguments: { status: 'in-progress', done: '', pending: 'rest', now: `turn ${turn}` },
        },
      ],
    };
  }
  return streamedFinalReport(reportPieces(session, script.reportTokens), {
    answer: { delayMs: script.delayMs, tokenDelayMs: script.tokenDelayMs },
  });
}
