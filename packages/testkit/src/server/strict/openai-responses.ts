import { isRecord } from '@agent/protocol/util';
import { type Json, objects } from './json.js';
import { acceptedEfforts, isReasoningModel, listValues, modelName, samplingAllowed } from './model-rules.js';
import { toolSearchRules } from './openai-responses-tool-search.js';
import { openAIRejection, type StrictViolation } from './violation.js';

/** Strict mode: the server refuses what the real API refuses, with its status and error body. */
export interface StrictOptions {
  /**
   * Answer as an OpenAI organisation that is verified, which may ask for reasoning summaries.
   * Default false: like most API users, the server refuses `reasoning.summary`.
   */
  verifiedOrganization?: boolean;
}

/** What follows a reasoning item in input: the output item the model produced after it. */
const isOutputItem = (item: Json): boolean =>
  item.type === 'function_call' ||
  item.type === 'tool_search_call' ||
  (item.type === 'message' && item.role === 'assistant');

/**
 * The input items: a reasoning item needs its following output item (more reasoning may come
 * between) and a summary; outputs answer earlier calls and every call is answered.
 */
function inputRules(body: Json): StrictViolation | undefined {
  const items = Array.isArray(body.input) ? objects(body.input) : [];
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const [index, item] of items.entries()) {
    const type = item.type ?? 'message';
    if (type === 'reasoning') {
      if (!Array.isArray(item.summary)) {
        return openAIRejection(
          `Missing required parameter: 'input[${index}].summary'.`,
          `input[${index}].summary`,
          'missing_required_parameter',
        );
      }
      const follower = items.slice(index + 1).find((next) => next.type !== 'reasoning');
      if (follower === undefined || !isOutputItem(follower)) {
        return openAIRejection(
          `Item '${String(item.id)}' of type 'reasoning' was provided without its required following item.`,
          'input',
          null,
        );
      }
    } else if (type === 'function_call' || type === 'tool_search_call') calls.add(String(item.call_id));
    else if (type === 'function_call_output' || type === 'tool_search_output') {
      const callId = String(item.call_id);
      if (!calls.has(callId)) {
        return openAIRejection(
          `No tool call found for function call output with call_id ${callId}.`,
          'input',
          null,
        );
      }
      answered.add(callId);
    }
  }
  const unanswered = [...calls].find((callId) => !answered.has(callId));
  if (unanswered !== undefined) {
    return openAIRejection(`No tool output found for function call ${unanswered}.`, 'input', null);
  }
  return undefined;
}

function reasoningRules(body: Json, options: StrictOptions): StrictViolation | undefined {
  const model = modelName(body.model);
  const reasoning = isRecord(body.reasoning) ? body.reasoning : {};
  if (reasoning.summary !== undefined && options.verifiedOrganization !== true) {
    return openAIRejection(
      'Your organization must be verified to generate reasoning summaries. Please go to: https://platform.openai.com/settings/organization/general and click on Verify Organization. If you just verified, it can take up to 15 minutes for access to propagate.',
      'reasoning.summary',
      'unsupported_value',
    );
  }
  if (!isReasoningModel(model)) return undefined;
  const efforts = acceptedEfforts(model);
  const effort = reasoning.effort;
  if (efforts !== undefined && typeof effort === 'string' && !efforts.includes(effort)) {
    return openAIRejection(
      `Unsupported value: '${effort}' is not supported with the '${model}' model. Supported values are: ${listValues(efforts)}.`,
      'reasoning.effort',
      'unsupported_value',
    );
  }
  if (samplingAllowed(model, effort)) return undefined;
  for (const param of ['temperature', 'top_p'] as const) {
    if (body[param] !== undefined && body[param] !== 1) {
      return openAIRejection(
        `Unsupported parameter: '${param}' is not supported with this model.`,
        param,
        null,
      );
    }
  }
  return undefined;
}

/** OpenAI's Responses rules. */
export function openAIResponsesRules(body: Json, options: StrictOptions): StrictViolation | undefined {
  return reasoningRules(body, options) ?? inputRules(body) ?? toolSearchRules(body);
}
