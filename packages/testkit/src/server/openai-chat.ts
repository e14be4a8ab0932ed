import type { StopReason, TokenUsage } from '@agent/protocol';
import type { AnswerPlan } from '../answer-plan.js';
import type { ScriptedAnswer } from '../steps.js';
import { splitIntoPieces } from '../tool-arguments.js';
import { midStreamErrorFrames } from './faults.js';
import { ARGUMENT_PIECE_CHARS, type RenderContext } from './render-context.js';
import { type Frame, JSON_HEADERS, SSE_HEADERS, sseFrame } from './sse.js';
import type { WireAnswer } from './wire-answer.js';

const FINISH_REASONS: Record<StopReason, string> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  content_filter: 'content_filter',
  // OpenAI reports a refusal in the `refusal` field and finishes normally.
  refusal: 'stop',
  // No OpenAI word: an OpenAI-compatible server's own.
  other: 'eos',
};

function chatUsage(usage: TokenUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.totalTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
    ...(usage.costUsd === undefined ? {} : { cost: usage.costUsd }),
  };
}

/** OpenRouter's structured reasoning: the format Gemini's details come in. */
const DETAILS_FORMAT = 'google-gemini-v1';

/** The deltas of one reasoning block, in the answer's reasoning field(s). */
function reasoningDeltas(
  block: AnswerPlan['reasoning'][number],
  index: number,
  field: NonNullable<ScriptedAnswer['chatReasoningField']>,
): Record<string, unknown>[] {
  if (field !== 'reasoning_details') return block.deltas.map((text) => ({ [field]: text }));
  const deltas: Record<string, unknown>[] = block.deltas.map((text) => ({
    reasoning: text,
    reasoning_details: [{ type: 'reasoning.text', text, format: DETAILS_FORMAT, index: index * 2 }],
  }));
  if (block.signature !== undefined) {
    const detail = {
      type: 'reasoning.encrypted',
      data: block.signature,
      format: DETAILS_FORMAT,
      index: index * 2 + 1,
    };
    deltas.push({ reasoning_details: [detail] });
  }
  return deltas;
}

/** The whole reasoning of a non-streamed message, in the answer's field(s). */
function reasoningFields(plan: AnswerPlan, field: NonNullable<ScriptedAnswer['chatReasoningField']>) {
  const text = plan.reasoning.map((block) => block.text).join('');
  if (text === '' && plan.reasoning.length === 0) return {};
  if (field !== 'reasoning_details') return text === '' ? {} : { [field]: text };
  const details = plan.reasoning.flatMap((block, index) => [
    { type: 'reasoning.text', text: block.text, format: DETAILS_FORMAT, index: index * 2 },
    ...(block.signature === undefined
      ? []
      : [
          {
            type: 'reasoning.encrypted',
            data: block.signature,
            format: DETAILS_FORMAT,
            index: index * 2 + 1,
          },
        ]),
  ]);
  return { reasoning: text, reasoning_details: details };
}

/** A tool call's first delta; a server that sends no ids sends no `id`. */
function callHead(call: AnswerPlan['toolCalls'][number], index: number): Record<string, unknown> {
  return {
    index,
    ...(call.id === '' ? {} : { id: call.id }),
    type: 'function',
    function: { name: call.name, arguments: '' },
  };
}

function finishReason(plan: AnswerPlan): string {
  return plan.rawStopReason ?? FINISH_REASONS[plan.stopReason];
}

function streamFrames(plan: AnswerPlan, answer: ScriptedAnswer, context: RenderContext): Frame[] {
  const base = {
    id: `chatcmpl-testkit-${context.callNumber}`,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
    system_fingerprint: 'fp_testkit',
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, isDelta = true): Frame =>
    sseFrame(
      {
        ...base,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        ...(context.includeUsage ? { usage: null } : {}),
      },
      { delta: isDelta },
    );
  const frames: Frame[] = [chunk({ role: 'assistant', content: '', refusal: null }, null, false)];
  const reasoningField = answer.chatReasoningField ?? 'reasoning_content';
  plan.reasoning.forEach((block, index) => {
    for (const delta of reasoningDeltas(block, index, reasoningField)) frames.push(chunk(delta));
  });
  const textField = plan.stopReason === 'refusal' ? 'refusal' : 'content';
  for (const text of plan.textDeltas) frames.push(chunk({ [textField]: text }));
  if (context.midStreamError !== undefined) {
    return [...frames, ...midStreamErrorFrames(context.midStreamError, context, frames.length)];
  }
  plan.toolCalls.forEach((call, index) => {
    frames.push(chunk({ tool_calls: [callHead(call, index)] }));
    for (const piece of splitIntoPieces(call.argumentsText, ARGUMENT_PIECE_CHARS)) {
      if (piece !== '') frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  frames.push(chunk({}, finishReason(plan), false));
  if (context.includeUsage) {
    frames.push(sseFrame({ ...base, choices: [], usage: chatUsage(plan.usage) }));
  }
  frames.push({ text: 'data: [DONE]\n\n' });
  return frames;
}

function completionBody(
  plan: AnswerPlan,
  answer: ScriptedAnswer,
  context: RenderContext,
): Record<string, unknown> {
  const refusal = plan.stopReason === 'refusal';
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: refusal || (plan.text === '' && plan.toolCalls.length > 0) ? null : plan.text,
    refusal: refusal ? plan.text : null,
    annotations: [],
    ...reasoningFields(plan, answer.chatReasoningField ?? 'reasoning_content'),
  };
  if (plan.toolCalls.length > 0) {
    message.tool_calls = plan.toolCalls.map((call) => ({
      ...(call.id === '' ? {} : { id: call.id }),
      type: 'function',
      function: { name: call.name, arguments: call.argumentsText },
    }));
  }
  return {
    id: `chatcmpl-testkit-${context.callNumber}`,
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(plan) }],
    usage: chatUsage(plan.usage),
    service_tier: 'default',
    system_fingerprint: 'fp_testkit',
  };
}

/** The Chat Completions answer: SSE chunks ending in `data: [DONE]`, or one completion object. */
export function renderChat(plan: AnswerPlan, answer: ScriptedAnswer, context: RenderContext): WireAnswer {
  const idHeader = { 'x-request-id': context.requestId };
  if (context.streaming) {
    const frames = streamFrames(plan, answer, context);
    return {
      type: 'stream',
      api: 'openai-chat',
      status: 200,
      headers: { ...SSE_HEADERS, ...idHeader },
      frames,
    };
  }
  const body = JSON.stringify(completionBody(plan, answer, context));
  return { type: 'body', status: 200, headers: { ...JSON_HEADERS, ...idHeader }, body };
}
