import type { ConversationMessage, OpNode, UserMessage } from '@agent/protocol';
import type { GuardrailRunner } from '../guardrails/guardrail-runner.js';
import { guardrailEnd, type TurnEnd } from './turn-end.js';

/** What an input check decided: go on (the prompt maybe rewritten), or end the run. */
export type InputCheck = { kind: 'go'; rewritten: boolean } | { kind: 'end'; end: TurnEnd };

/**
 * Runs the input guardrails on the prompt (the last user message; the messages before it are
 * the history). A rewrite replaces the prompt's text; a block replaces it with a placeholder,
 * so the blocked input is in no result, and ends the run.
 */
export async function checkInput(
  guards: GuardrailRunner,
  conversation: ConversationMessage[],
  turnNode: OpNode,
  signal: AbortSignal,
): Promise<InputCheck> {
  const index = conversation.findLastIndex((message) => message.role === 'user');
  if (index === -1) return { kind: 'go', rewritten: false };
  const prompt = conversation[index] as UserMessage;
  const decision = await guards.run(
    { phase: 'prompt', text: prompt.content, history: conversation.slice(0, index) },
    turnNode,
    (subject, value) =>
      typeof value === 'string' ? { ...subject, text: value } : 'the prompt must be rewritten as a string',
  );
  if (decision.kind === 'trip') {
    conversation[index] = { role: 'user', content: `(blocked by guardrail ${decision.trip.name})` };
    return { kind: 'end', end: guardrailEnd(decision.trip, signal) };
  }
  if (decision.kind !== 'go' || decision.rewrittenBy.length === 0) return { kind: 'go', rewritten: false };
  // In place: the context guard counts the message when it first needs it.
  prompt.content = decision.subject.text;
  delete prompt.parts;
  return { kind: 'go', rewritten: true };
}
