import { isRecord } from '@agent/protocol/util';
import { type Json, objects } from './json.js';
import { acceptedEfforts, isReasoningModel, listValues, modelName, samplingAllowed } from './model-rules.js';
import { openAIRejection, type StrictViolation } from './violation.js';

/** OpenAI refuses tool-call ids longer than this. */
const MAX_TOOL_CALL_ID = 40;

/**
 * Every tool message answers a call of the assistant message before its run of tool messages,
 * and every call is answered (the rules every Chat Completions server enforces; OpenAI's words).
 */
export function chatToolPairing(body: Json): StrictViolation | undefined {
  const messages = objects(body.messages);
  let open: { index: number; ids: Set<string> } | undefined;
  const unanswered = (): StrictViolation | undefined => {
    if (open === undefined || open.ids.size === 0) return undefined;
    return openAIRejection(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open.ids].join(', ')}`,
      `messages.[${open.index}].role`,
      null,
    );
  };
  for (const [index, message] of messages.entries()) {
    if (message.role === 'tool') {
      const id = message.tool_call_id;
      if (open === undefined || typeof id !== 'string' || !open.ids.delete(id)) {
        return openAIRejection(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${index}].role`,
          null,
        );
      }
      continue;
    }
    const missing = unanswered();
    if (missing !== undefined) return missing;
    open = undefined;
    const calls = objects(message.tool_calls);
    if (message.role === 'assistant' && calls.length > 0) {
      open = { index, ids: new Set(calls.map((call) => String(call.id ?? ''))) };
    }
  }
  return unanswered();
}

function toolCallIdLength(body: Json): StrictViolation | undefined {
  for (const [index, message] of objects(body.messages).entries()) {
    for (const [position, call] of objects(message.tool_calls).entries()) {
      const id = typeof call.id === 'string' ? call.id : '';
      if (id.length > MAX_TOOL_CALL_ID) {
        const param = `messages[${index}].tool_calls[${position}].id`;
        return openAIRejection(
          `Invalid '${param}': string too long. Expected a string with maximum length ${MAX_TOOL_CALL_ID}, but got a string with length ${id.length} instead.`,
          param,
          'string_above_max_length',
        );
      }
    }
  }
  return undefined;
}

/** What OpenAI's reasoning models refuse in a Chat Completions request. */
function reasoningModelRules(body: Json, model: string): StrictViolation | undefined {
  if (!isReasoningModel(model)) return undefined;
  if (body.max_tokens !== undefined) {
    return openAIRejection(
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      'max_tokens',
      'unsupported_parameter',
    );
  }
  const efforts = acceptedEfforts(model);
  const effort = body.reasoning_effort;
  if (efforts !== undefined && typeof effort === 'string' && !efforts.includes(effort)) {
    return openAIRejection(
      `Unsupported value: '${effort}' is not supported with the '${model}' model. Supported values are: ${listValues(efforts)}.`,
      'reasoning_effort',
      'unsupported_value',
    );
  }
  if (samplingAllowed(model, effort)) return undefined;
  for (const param of ['temperature', 'top_p'] as const) {
    const value = body[param];
    if (value !== undefined && value !== 1) {
      return openAIRejection(
        `Unsupported value: '${param}' does not support ${String(value)} with this model. Only the default (1) value is supported.`,
        param,
        'unsupported_value',
      );
    }
  }
  return undefined;
}

/** OpenAI's own Chat Completions rules. */
export function openAIChatRules(body: Json): StrictViolation | undefined {
  if (isRecord(body.stream_options) && body.stream !== true) {
    return openAIRejection(
      "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      'stream_options',
      null,
    );
  }
  return reasoningModelRules(body, modelName(body.model)) ?? toolCallIdLength(body);
}
