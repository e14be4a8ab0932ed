// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${parameters.x}` is restTools template syntax here
// What the effects soak's model does: turn 1 asks for two calls of the counting API (one short,
// one long, so a kill can land between their ends), turn 2 one call, turn 3 streams the report
// slowly. A re-asked model writes new call ids and arguments (its attempt in both), as a real
// model would: only a replayed answer keeps them.
import { type ScriptedAnswer, streamedFinalReport } from '@agent/testkit';

/** The tool the agent file lists: `restTools.effects`. */
export const EFFECT_TOOL = 'rest__effects';

/** The logical calls of each session: op suffix and how long the API takes to answer it. */
export const SESSION_CALLS: readonly { suffix: string; turn: number; delayMs: number }[] = [
  { suffix: 't1.a', turn: 1, delayMs: 250 },
  { suffix: 't1.b', turn: 1, delayMs: 700 },
  { suffix: 't2.a', turn: 2, delayMs: 450 },
];

export interface ScriptTiming {
  /** Latency before each model answer. */
  modelDelayMs: number;
  /** Report pieces and the pause between them. */
  reportPieces: number;
  pieceDelayMs: number;
}

/** The pieces of `session`'s report, in order; joined they are the whole report. */
export function reportPieces(session: string, pieces: number): string[] {
  return [
    `done ${session}:`,
    ...Array.from({ length: pieces - 1 }, (_, i) => ` part ${i + 1} of ${session}.`),
  ];
}

export function expectedReport(session: string, pieces: number): string {
  return reportPieces(session, pieces).join('');
}

/** The model's answer to `session`'s `turn`, the `attempt`th time it is asked. */
export function effectsAnswer(
  session: string,
  turn: number,
  attempt: number,
  timing: ScriptTiming,
): ScriptedAnswer {
  const calls = SESSION_CALLS.filter((call) => call.turn === turn);
  if (calls.length > 0) {
    return {
      delayMs: timing.modelDelayMs,
      toolCalls: calls.map((call) => {
        const op = `${session}.${call.suffix}`;
        return {
          id: `c-${op}-a${attempt}`,
          name: EFFECT_TOOL,
          arguments: { op, attempt, delayMs: call.delayMs },
        };
      }),
    };
  }
  return streamedFinalReport(reportPieces(session, timing.reportPieces), {
    answer: { delayMs: timing.modelDelayMs, tokenDelayMs: timing.pieceDelayMs },
  });
}

/** agent.json's `restTools.effects` for the worker named: a POST to the API, no approval. */
export function effectsRestTools(apiUrl: string, worker: string): Record<string, unknown> {
  return {
    restTools: {
      effects: {
        description: 'Applies one side effect at the counting API.',
        method: 'POST',
        url: `${apiUrl}/effect`,
        headers: { 'x-soak-worker': worker },
        bodyTemplate: {
          op: '${parameters.op}',
          attempt: '${parameters.attempt}',
          delayMs: '${parameters.delayMs}',
        },
        parametersSchema: {
          type: 'object',
          properties: { op: { type: 'string' }, attempt: { type: 'integer' }, delayMs: { type: 'integer' } },
          required: ['op', 'attempt', 'delayMs'],
        },
        timeoutMs: '10s',
        approval: false,
      },
    },
  };
}
