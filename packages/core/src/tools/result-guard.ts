import type { OpNode, ToolCall } from '@agent/protocol';
import type { GuardrailRunner } from '../guardrails/guardrail-runner.js';
import type { RawToolOutcome } from './call-runner.js';

/**
 * The `result` guardrails on a call's outcome (after the journal recorded it, before sizing): a
 * rewrite replaces the text the model sees; a block replaces it with a placeholder and marks the
 * outcome, so the run ends with nothing of it in the result. A journal replay runs them again.
 */
export async function guardResult(
  guards: GuardrailRunner,
  call: ToolCall,
  outcome: RawToolOutcome,
  parent: OpNode,
): Promise<RawToolOutcome> {
  const decision = await guards.run(
    { phase: 'result', callId: call.id, tool: call.name, arguments: call.arguments, text: outcome.text },
    parent,
    (subject, value) =>
      typeof value === 'string' ? { ...subject, text: value } : 'a result must be rewritten as a string',
  );
  if (decision.kind === 'trip') {
    return {
      ...outcome,
      ok: false,
      text: `(blocked by guardrail ${decision.trip.name})`,
      error: 'guardrail',
      guardrail: decision.trip,
    };
  }
  if (decision.kind !== 'go' || decision.rewrittenBy.length === 0) return outcome;
  return { ...outcome, text: decision.subject.text };
}
