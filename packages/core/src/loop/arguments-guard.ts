import {
  BATCH_TOOL,
  type GuardrailTrip,
  isFinalReportName,
  type OpNode,
  REPORT_BACK_TOOL,
  TASK_STATUS_TOOL,
  type ToolCall,
} from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';
import type { GuardrailRunner } from '../guardrails/guardrail-runner.js';

/** What the `arguments` guardrails decided for the calls of one answer. */
export interface ArgumentsChecked {
  /** The calls to run, in the model's order (a rewritten call carries its new arguments). */
  calls: ToolCall[];
  /** Calls that do not run, by id, with what the model is told. */
  denied: Map<string, string>;
  /** Calls a person must decide (`ask`), by id, with the guardrail's reason. */
  asks: Map<string, string>;
  /** A guardrail blocked a call: the run ends before any of them runs. */
  trip?: GuardrailTrip;
}

/** The session's own calls, which no guardrail checks. */
function isInternalCall(call: ToolCall): boolean {
  return (
    call.name === TASK_STATUS_TOOL ||
    call.name === BATCH_TOOL ||
    call.name === REPORT_BACK_TOOL ||
    isFinalReportName(call.name)
  );
}

/**
 * Runs the `arguments` guardrails on each call of an answer, in the model's order, before any
 * runs. The conversation keeps the model's calls; a rewrite changes only what runs.
 */
export async function guardArguments(
  guards: GuardrailRunner,
  calls: readonly ToolCall[],
  turnNode: OpNode,
): Promise<ArgumentsChecked> {
  const checked: ArgumentsChecked = { calls: [], denied: new Map(), asks: new Map() };
  for (const call of calls) {
    if (call.parseError !== undefined || isInternalCall(call) || !guards.checks('arguments', call.name)) {
      checked.calls.push(call);
      continue;
    }
    const decision = await guards.run(
      {
        phase: 'arguments',
        callId: call.id,
        tool: call.name,
        arguments: call.arguments,
        text: call.rawArguments ?? JSON.stringify(call.arguments),
      },
      turnNode,
      (subject, value) =>
        isRecord(value)
          ? { ...subject, arguments: value, text: JSON.stringify(value) }
          : 'arguments must be rewritten as a JSON object',
    );
    if (decision.kind === 'trip') return { ...checked, trip: decision.trip };
    if (decision.kind === 'deny') checked.denied.set(call.id, `blocked by guardrail ${decision.name}: ${decision.reason}`);
    if (decision.kind === 'ask') checked.asks.set(call.id, decision.reason);
    if (decision.kind === 'go' && decision.rewrittenBy.length > 0) {
      const { rawArguments: _raw, ...rest } = call;
      checked.calls.push({ ...rest, arguments: decision.subject.arguments });
    } else checked.calls.push(call);
  }
  return checked;
}
