import type { StopReason, TokenUsage } from '@agent/protocol';
import type { AnswerPlan } from '../answer-plan.js';
import { splitIntoPieces } from '../tool-arguments.js';
import { midStreamErrorFrames } from './faults.js';
import { ARGUMENT_PIECE_CHARS, type RenderContext, uncachedInputTokens } from './render-context.js';
import { type Frame, JSON_HEADERS, SSE_HEADERS, sseFrame } from './sse.js';
import type { WireAnswer } from './wire-answer.js';

const STOP_REASONS: Record<StopReason, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
  refusal: 'refusal',
  other: 'pause_turn',
};

function inputUsage(usage: TokenUsage): Record<string, number> {
  return {
    input_tokens: uncachedInputTokens(usage),
    cache_creation_input_tokens: usage.cacheWriteTokens ?? 0,
    cache_read_input_tokens: usage.cachedTokens ?? 0,
  };
}

function stopReason(plan: AnswerPlan): string {
  return plan.rawStopReason ?? STOP_REASONS[plan.stopReason];
}

/** The content blocks of the finished message: thinking, text, tool_use. */
function contentBlocks(plan: AnswerPlan): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = plan.reasoning.map((block) => ({
    type: 'thinking',
    thinking: block.text,
    signature: block.signature ?? '',
  }));
  if (plan.text !== '') blocks.push({ type: 'text', text: plan.text });
  for (const call of plan.toolCalls) {
    // Anthropic sends parsed input; arguments that do not parse can only travel as the raw string.
    const input = call.call.parseError === undefined ? call.call.arguments : call.argumentsText;
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input });
  }
  return blocks;
}

function messageObject(
  plan: AnswerPlan,
  context: RenderContext,
  streaming: boolean,
): Record<string, unknown> {
  return {
    id: `msg_testkit_${context.callNumber}`,
    type: 'message',
    role: 'assistant',
    model: context.model,
    content: streaming ? [] : contentBlocks(plan),
    stop_reason: streaming ? null : stopReason(plan),
    stop_sequence: null,
    usage: { ...inputUsage(plan.usage), output_tokens: streaming ? 1 : plan.usage.outputTokens },
  };
}

function streamFrames(plan: AnswerPlan, context: RenderContext): Frame[] {
  const frames: Frame[] = [];
  const emit = (type: string, data: Record<string, unknown>, delta = false) =>
    frames.push(sseFrame({ type, ...data }, { event: type, delta }));
  emit('message_start', { message: messageObject(plan, context, true) });
  emit('ping', {});
  let index = 0;
  for (const block of plan.reasoning) {
    emit('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const thinking of block.deltas) {
      emit('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } }, true);
    }
    if (block.signature !== undefined) {
      emit('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } });
    }
    emit('content_block_stop', { index });
    index += 1;
  }
  if (plan.textDeltas.length > 0) {
    emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const text of plan.textDeltas)
      emit('content_block_delta', { index, delta: { type: 'text_delta', text } }, true);
    if (context.midStreamError === undefined) emit('content_block_stop', { index });
    index += 1;
  }
  if (context.midStreamError !== undefined) {
    return [...frames, ...midStreamErrorFrames(context.midStreamError, context, frames.length)];
  }
  for (const call of plan.toolCalls) {
    emit('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
    });
    emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } });
    for (const partial_json of splitIntoPieces(call.argumentsText, ARGUMENT_PIECE_CHARS)) {
      if (partial_json !== '')
        emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }, true);
    }
    emit('content_block_stop', { index });
    index += 1;
  }
  emit('message_delta', {
    delta: { stop_reason: stopReason(plan), stop_sequence: null },
    usage: { ...inputUsage(plan.usage), output_tokens: plan.usage.outputTokens },
  });
  emit('message_stop', {});
  return frames;
}

/** The Messages answer: named SSE events from `message_start` to `message_stop`, or one message. */
export function renderAnthropic(plan: AnswerPlan, context: RenderContext): WireAnswer {
  const idHeader = { 'request-id': context.requestId };
  if (context.streaming) {
    const frames = streamFrames(plan, context);
    return {
      type: 'stream',
      api: 'anthropic',
      status: 200,
      headers: { ...SSE_HEADERS, ...idHeader },
      frames,
    };
  }
  const body = JSON.stringify(messageObject(plan, context, false));
  return { type: 'body', status: 200, headers: { ...JSON_HEADERS, ...idHeader }, body };
}
