import type { SessionTape } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';

const isIndexList = (value: unknown, size: number) =>
  Array.isArray(value) && value.every((index) => Number.isInteger(index) && index >= 0 && index < size);

/**
 * What makes a tape unusable for a replay (a record is a file anyone could have written): its
 * tables and lists not lists, a request pointing past them, an answer without its text or with
 * tool calls that are not `{id, name, arguments}` strings, a tool call without its id, name or
 * result. Undefined when it is usable.
 */
export function tapeProblem(tape: unknown): string | undefined {
  if (!isRecord(tape) || typeof tape.agentPath !== 'string' || !Number.isInteger(tape.ordinal))
    return 'a tape has no agentPath or ordinal';
  const { messages, tools, calls, toolCalls } = tape as Partial<Record<keyof SessionTape, unknown>>;
  if (!Array.isArray(messages) || !Array.isArray(tools) || !Array.isArray(calls) || !Array.isArray(toolCalls))
    return `the tape of ${tape.agentPath} has no messages, tools, calls or toolCalls list`;
  for (const [n, call] of calls.entries()) {
    const where = `model call ${n + 1} of ${tape.agentPath}`;
    if (
      !isRecord(call) ||
      !isIndexList(call.messages, messages.length) ||
      !isIndexList(call.tools, tools.length)
    )
      return `${where} points at messages or tools the tape does not have`;
    if (call.answer !== undefined && answerProblem(call.answer)) return `${where} has a malformed answer`;
  }
  for (const [n, call] of toolCalls.entries())
    if (
      !isRecord(call) ||
      typeof call.callId !== 'string' ||
      typeof call.name !== 'string' ||
      !isRecord(call.result)
    )
      return `tool call ${n + 1} of ${tape.agentPath} has no callId, name or result`;
  return undefined;
}

function answerProblem(answer: unknown): boolean {
  if (!isRecord(answer) || typeof answer.text !== 'string' || !Array.isArray(answer.toolCalls)) return true;
  return !answer.toolCalls.every(
    (call) =>
      isRecord(call) &&
      typeof call.id === 'string' &&
      typeof call.name === 'string' &&
      typeof call.arguments === 'string',
  );
}
