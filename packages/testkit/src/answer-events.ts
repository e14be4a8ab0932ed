import type { ModelStreamEvent } from '@agent/protocol';
import type { AnswerPlan } from './answer-plan.js';

/** One event of an in-process answer; `paced` ones wait `tokenDelayMs` (all but the first). */
export interface PlannedEvent {
  event: ModelStreamEvent;
  paced: boolean;
}

/**
 * The in-process events of a planned answer, in order: reasoning deltas (the last delta of a
 * block carries its signature), text deltas, tool calls, usage, finish. `textEnd` is where the
 * text ends: a `midStream` error is thrown there.
 */
export function answerEvents(
  plan: AnswerPlan,
  callNumber: number,
): { events: PlannedEvent[]; textEnd: number } {
  const events: PlannedEvent[] = [];
  for (const block of plan.reasoning) {
    if (block.deltas.length === 0 && block.signature === undefined) continue;
    const deltas = block.deltas.length > 0 ? block.deltas : [''];
    deltas.forEach((text, index) => {
      const last = index === deltas.length - 1 && block.signature !== undefined;
      const event: ModelStreamEvent = last
        ? { type: 'reasoning-delta', text, signature: block.signature as string }
        : { type: 'reasoning-delta', text };
      events.push({ event, paced: true });
    });
  }
  for (const text of plan.textDeltas) events.push({ event: { type: 'text-delta', text }, paced: true });
  const textEnd = events.length;
  for (const planned of plan.toolCalls)
    events.push({ event: { type: 'tool-call', call: planned.call }, paced: true });
  events.push({ event: { type: 'usage', usage: plan.usage }, paced: false });
  events.push({
    event: {
      type: 'finish',
      stopReason: plan.stopReason,
      rawStopReason: plan.rawStopReason ?? plan.stopReason,
      responseId: `scripted-${callNumber}`,
    },
    paced: false,
  });
  return { events, textEnd };
}
