import { isRecord } from '@agent/protocol/util';
import { type Json, objects } from './json.js';
import { modelName } from './model-rules.js';
import {
  mistralExtraForbidden,
  mistralRejection,
  openAIRejection,
  openRouterRejection,
  type StrictViolation,
} from './violation.js';

const MISTRAL_ID = /^[A-Za-z0-9]{9}$/;

/**
 * api.mistral.ai: no `stream_options` (422 extra_forbidden), tool-call ids of exactly 9 letters
 * and digits, and no user message right after a tool message (an assistant message must come
 * between; reported by users, not in Mistral's docs).
 */
export function mistralRules(body: Json): StrictViolation | undefined {
  if (body.stream_options !== undefined) return mistralExtraForbidden('stream_options', body.stream_options);
  let previousRole: unknown;
  for (const message of objects(body.messages)) {
    const ids = [
      ...objects(message.tool_calls).map((call) => call.id),
      ...(message.role === 'tool' ? [message.tool_call_id] : []),
    ];
    for (const id of ids) {
      if (typeof id !== 'string' || !MISTRAL_ID.test(id)) {
        return mistralRejection(
          `Tool call id was ${String(id)} but must be a-z, A-Z, 0-9, with a length of 9.`,
          'invalid_function_call',
          '3280',
        );
      }
    }
    if (message.role === 'user' && previousRole === 'tool') {
      return mistralRejection(
        "Unexpected role 'user' after role 'tool'",
        'invalid_request_message_order',
        '3230',
      );
    }
    previousRole = message.role;
  }
  return undefined;
}

/**
 * DeepSeek thinking mode (deepseek-reasoner, or `thinking: {type: 'enabled'}`): every assistant
 * message with tool calls must carry `reasoning_content`, empty or not.
 */
export function deepSeekRules(body: Json): StrictViolation | undefined {
  const thinking =
    modelName(body.model) === 'deepseek-reasoner' ||
    (isRecord(body.thinking) && body.thinking.type === 'enabled');
  if (!thinking) return undefined;
  for (const [index, message] of objects(body.messages).entries()) {
    if (message.role !== 'assistant' || objects(message.tool_calls).length === 0) continue;
    if (typeof message.reasoning_content !== 'string') {
      return openAIRejection(
        `Missing \`reasoning_content\` field in the assistant message at message index ${index}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`,
        null,
        'invalid_request_error',
      );
    }
  }
  return undefined;
}

/**
 * OpenRouter in front of Gemini: the last assistant tool-call turn must come back with the
 * `reasoning_details` (thought signatures) OpenRouter sent with it.
 */
export function openRouterRules(body: Json): StrictViolation | undefined {
  if (!modelName(body.model).startsWith('gemini') && !String(body.model).startsWith('google/'))
    return undefined;
  const messages = objects(body.messages);
  const last = messages.findLast((message) => message.role === 'assistant');
  const calls = objects(last?.tool_calls);
  if (last === undefined || calls.length === 0) return undefined;
  const signed = objects(last.reasoning_details).some((detail) => detail.type === 'reasoning.encrypted');
  if (signed) return undefined;
  const position = messages.indexOf(last);
  const name = isRecord(calls[0]?.function) ? String(calls[0].function.name) : '';
  const upstream = {
    error: {
      code: 400,
      message: `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${position}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
      status: 'INVALID_ARGUMENT',
    },
  };
  return openRouterRejection(
    `Gemini models require OpenRouter reasoning details to be preserved in each request. Please refer to our docs: https://openrouter.ai/docs/guides/best-practices/reasoning-tokens#preserving-reasoning-blocks. Upstream error: ${JSON.stringify(upstream, null, 2)}\n`,
    'Google AI Studio',
  );
}
