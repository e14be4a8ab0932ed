import { isRecord } from '@agent/protocol/util';

/*
 * The shape of journal entries read back for a replay: what the session relies on is there and
 * has its type. (Whether an entry was changed in the store is the store's seal to check.)
 */

/** Why a journaled answer cannot be replayed; undefined when it can. */
export function answerProblem(entry: Record<string, unknown>): string | undefined {
  const { message, accounting } = entry;
  if (!isRecord(message) || message.role !== 'assistant' || typeof message.content !== 'string')
    return 'its message is not an assistant message with text content';
  if (message.reasoning !== undefined && !isList(message.reasoning, isReasoningPart))
    return 'its message has reasoning that is not a list of { text } parts';
  if (message.toolCalls !== undefined && !isList(message.toolCalls, isToolCall))
    return 'its message has tool calls that are not a list of { id, name, arguments }';
  if (accounting !== undefined && !isLlmEntry(accounting))
    return 'its accounting is not a model call entry with tokens';
  return undefined;
}

/** Why a journaled tool outcome cannot be replayed; undefined when it can. */
export function outcomeProblem(entry: Record<string, unknown>): string | undefined {
  if (typeof entry.callId !== 'string' || typeof entry.tool !== 'string')
    return 'it names no call id and tool';
  if (typeof entry.ok !== 'boolean' || typeof entry.text !== 'string') return 'it has no ok flag and text';
  if (entry.error !== undefined && typeof entry.error !== 'string') return 'its error is not a string';
  if (entry.endSession !== undefined && !isRecord(entry.endSession))
    return 'its endSession is not a report object';
  return undefined;
}

function isList(value: unknown, each: (item: unknown) => boolean): boolean {
  return Array.isArray(value) && value.every(each);
}

function isReasoningPart(value: unknown): boolean {
  return isRecord(value) && typeof value.text === 'string';
}

function isToolCall(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.name === 'string' &&
    isRecord(value.arguments)
  );
}

function isLlmEntry(value: unknown): boolean {
  return (
    isRecord(value) &&
    value.type === 'llm' &&
    typeof value.provider === 'string' &&
    typeof value.model === 'string' &&
    isRecord(value.tokens)
  );
}
