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
import { readBatchCalls } from '../tools/internal-tools.js';

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
 * runs; each call inside `agent__batch` on its own (as `<batch id>:<inner id>`), so a batch is
 * no way around them. The conversation keeps the model's calls; a rewrite changes only what runs.
 */
export async function guardArguments(
  guards: GuardrailRunner,
  calls: readonly ToolCall[],
  turnNode: OpNode,
): Promise<ArgumentsChecked> {
  const checked: ArgumentsChecked = { calls: [], denied: new Map(), asks: new Map() };
  for (const call of calls) {
    if (call.parseError === undefined && call.name === BATCH_TOOL) {
      const trip = await guardBatch(guards, call, turnNode, checked);
      if (trip !== undefined) return { ...checked, trip };
      continue;
    }
    if (call.parseError !== undefined || isInternalCall(call) || !guards.checks('arguments', call.name)) {
      checked.calls.push(call);
      continue;
    }
    const decision = await guardOne(guards, call.id, call.name, call.arguments, turnNode, call.rawArguments);
    if (decision.kind === 'trip') return { ...checked, trip: decision.trip };
    if (decision.kind === 'deny') checked.denied.set(call.id, deniedText(decision));
    if (decision.kind === 'ask') checked.asks.set(call.id, decision.reason);
    if (decision.kind === 'go' && decision.rewrittenBy.length > 0) {
      const { rawArguments: _raw, ...rest } = call;
      checked.calls.push({ ...rest, arguments: decision.subject.arguments });
    } else checked.calls.push(call);
  }
  return checked;
}

function guardOne(
  guards: GuardrailRunner,
  callId: string,
  tool: string,
  args: Record<string, unknown>,
  turnNode: OpNode,
  rawArguments?: string,
) {
  return guards.run(
    { phase: 'arguments', callId, tool, arguments: args, text: rawArguments ?? JSON.stringify(args) },
    turnNode,
    (subject, value) =>
      isRecord(value)
        ? { ...subject, arguments: value, text: JSON.stringify(value) }
        : 'arguments must be rewritten as a JSON object',
  );
}

function deniedText(decision: { name: string; reason: string }): string {
  return `blocked by guardrail ${decision.name}: ${decision.reason}`;
}

/**
 * The inner calls of a batch: a denied one is refused by its inner id (the batch runs the
 * rest), an asked one sends the whole batch to a person, a rewritten one runs with its new
 * parameters. Returns the trip when one blocks.
 */
async function guardBatch(
  guards: GuardrailRunner,
  call: ToolCall,
  turnNode: OpNode,
  checked: ArgumentsChecked,
): Promise<GuardrailTrip | undefined> {
  const inner = readBatchCalls(call.arguments);
  // A malformed batch fails on its own without running anything.
  if (typeof inner === 'string') {
    checked.calls.push(call);
    return undefined;
  }
  const rewritten: unknown[] = Array.isArray(call.arguments.calls) ? [...call.arguments.calls] : [];
  let changed = false;
  const asks: string[] = [];
  for (const [index, one] of inner.entries()) {
    if (
      isInternalCall({ id: one.id, name: one.tool, arguments: {} }) ||
      !guards.checks('arguments', one.tool)
    )
      continue;
    const innerId = `${call.id}:${one.id}`;
    const decision = await guardOne(guards, innerId, one.tool, one.parameters, turnNode);
    if (decision.kind === 'trip') return decision.trip;
    if (decision.kind === 'deny') checked.denied.set(innerId, deniedText(decision));
    if (decision.kind === 'ask') asks.push(`${one.id} (${one.tool}): ${decision.reason}`);
    if (decision.kind === 'go' && decision.rewrittenBy.length > 0) {
      rewritten[index] = { ...(rewritten[index] as object), parameters: decision.subject.arguments };
      changed = true;
    }
  }
  if (asks.length > 0) checked.asks.set(call.id, asks.join('; '));
  if (!changed) {
    checked.calls.push(call);
    return undefined;
  }
  const { rawArguments: _raw, ...rest } = call;
  checked.calls.push({ ...rest, arguments: { ...call.arguments, calls: rewritten } });
  return undefined;
}
