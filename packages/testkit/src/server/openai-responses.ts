import type { StopReason, TokenUsage } from '@agent/protocol';
import type { AnswerPlan } from '../answer-plan.js';
import { splitIntoPieces } from '../tool-arguments.js';
import { midStreamErrorFrames } from './faults.js';
import { ARGUMENT_PIECE_CHARS, type RenderContext } from './render-context.js';
import { type Frame, JSON_HEADERS, SSE_HEADERS, sseFrame } from './sse.js';
import type { WireAnswer } from './wire-answer.js';

type Item = Record<string, unknown>;

/** Why a response is `incomplete`; other stop reasons complete normally. */
const INCOMPLETE_REASONS: Partial<Record<StopReason, string>> = {
  length: 'max_output_tokens',
  content_filter: 'content_filter',
  other: 'other',
};

function responsesUsage(usage: TokenUsage): Record<string, unknown> {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.totalTokens,
  };
}

function incompleteReason(plan: AnswerPlan): string | undefined {
  const mapped = INCOMPLETE_REASONS[plan.stopReason];
  return mapped === undefined ? undefined : (plan.rawStopReason ?? mapped);
}

function responseObject(
  context: RenderContext,
  status: string,
  output: Item[],
  usage: Item | null,
  reason?: string,
) {
  return {
    id: `resp_testkit_${context.callNumber}`,
    object: 'response',
    created_at: context.created,
    status,
    background: false,
    error: null,
    incomplete_details: reason === undefined ? null : { reason },
    instructions: null,
    max_output_tokens: null,
    model: context.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage,
    metadata: {},
  };
}

/** The output items of the finished response, in order: reasoning, message, function calls. */
function outputItems(plan: AnswerPlan, context: RenderContext): Item[] {
  const n = context.callNumber;
  const items: Item[] = plan.reasoning.map((block, index) => ({
    id: `rs_testkit_${n}_${index + 1}`,
    type: 'reasoning',
    summary: block.text === '' ? [] : [{ type: 'summary_text', text: block.text }],
    ...(block.signature === undefined ? {} : { encrypted_content: block.signature }),
  }));
  // A response cut off while reasoning (max_output_tokens) has no message item.
  const cutWhileReasoning = plan.stopReason === 'length' && plan.text === '' && plan.reasoning.length > 0;
  if (plan.text !== '' || (plan.toolCalls.length === 0 && !cutWhileReasoning)) {
    const part =
      plan.stopReason === 'refusal'
        ? { type: 'refusal', refusal: plan.text }
        : { type: 'output_text', annotations: [], logprobs: [], text: plan.text };
    items.push({
      id: `msg_testkit_${n}`,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [part],
    });
  }
  plan.toolCalls.forEach((call, index) => {
    items.push({
      id: `fc_testkit_${n}_${index + 1}`,
      type: 'function_call',
      status: 'completed',
      arguments: call.argumentsText,
      call_id: call.id,
      name: call.name,
    });
  });
  return items;
}

function streamFrames(plan: AnswerPlan, context: RenderContext): Frame[] {
  const frames: Frame[] = [];
  const emit = (type: string, data: Item, delta = false) =>
    frames.push(sseFrame({ type, sequence_number: frames.length, ...data }, { event: type, delta }));
  emit('response.created', { response: responseObject(context, 'in_progress', [], null) });
  emit('response.in_progress', { response: responseObject(context, 'in_progress', [], null) });
  const fail = (error: NonNullable<RenderContext['midStreamError']>) => {
    frames.push(...midStreamErrorFrames(error, context, frames.length));
    emit('response.failed', { response: responseObject(context, 'failed', [], null) });
    return frames;
  };
  const items = outputItems(plan, context);
  let reasoningIndex = 0;
  let callIndex = 0;
  for (const [output_index, item] of items.entries()) {
    const item_id = item.id;
    const at = { item_id, output_index };
    if (item.type === 'reasoning') {
      const block = plan.reasoning[reasoningIndex++];
      emit('response.output_item.added', { output_index, item: { ...item, summary: [] } });
      if (block !== undefined && block.deltas.length > 0) {
        const part = { ...at, summary_index: 0 };
        emit('response.reasoning_summary_part.added', { ...part, part: { type: 'summary_text', text: '' } });
        for (const delta of block.deltas)
          emit('response.reasoning_summary_text.delta', { ...part, delta }, true);
        emit('response.reasoning_summary_text.done', { ...part, text: block.text });
        emit('response.reasoning_summary_part.done', {
          ...part,
          part: { type: 'summary_text', text: block.text },
        });
      }
      emit('response.output_item.done', { output_index, item });
    } else if (item.type === 'message') {
      const refusal = plan.stopReason === 'refusal';
      const part = { ...at, content_index: 0 };
      emit('response.output_item.added', {
        output_index,
        item: { ...item, status: 'in_progress', content: [] },
      });
      emit('response.content_part.added', {
        ...part,
        part: refusal
          ? { type: 'refusal', refusal: '' }
          : { type: 'output_text', annotations: [], logprobs: [], text: '' },
      });
      for (const delta of plan.textDeltas) {
        if (refusal) emit('response.refusal.delta', { ...part, delta }, true);
        else emit('response.output_text.delta', { ...part, delta, logprobs: [] }, true);
      }
      if (context.midStreamError !== undefined) return fail(context.midStreamError);
      if (refusal) emit('response.refusal.done', { ...part, refusal: plan.text });
      else emit('response.output_text.done', { ...part, text: plan.text, logprobs: [] });
      emit('response.content_part.done', { ...part, part: (item.content as Item[])[0] });
      emit('response.output_item.done', { output_index, item });
    } else {
      if (context.midStreamError !== undefined) return fail(context.midStreamError);
      const call = plan.toolCalls[callIndex++];
      const argumentsText = call?.argumentsText ?? '';
      emit('response.output_item.added', {
        output_index,
        item: { ...item, status: 'in_progress', arguments: '' },
      });
      for (const delta of splitIntoPieces(argumentsText, ARGUMENT_PIECE_CHARS)) {
        if (delta !== '') emit('response.function_call_arguments.delta', { ...at, delta }, true);
      }
      emit('response.function_call_arguments.done', { ...at, arguments: argumentsText });
      emit('response.output_item.done', { output_index, item });
    }
  }
  if (context.midStreamError !== undefined) return fail(context.midStreamError);
  const reason = incompleteReason(plan);
  const status = reason === undefined ? 'completed' : 'incomplete';
  const response = responseObject(context, status, items, responsesUsage(plan.usage), reason);
  emit(`response.${status}`, { response });
  return frames;
}

/** The Responses answer: typed SSE events (`event:` lines), or one response object. */
export function renderResponses(plan: AnswerPlan, context: RenderContext): WireAnswer {
  const idHeader = { 'x-request-id': context.requestId };
  if (context.streaming) {
    const frames = streamFrames(plan, context);
    return {
      type: 'stream',
      api: 'openai-responses',
      status: 200,
      headers: { ...SSE_HEADERS, ...idHeader },
      frames,
    };
  }
  const reason = incompleteReason(plan);
  const status = reason === undefined ? 'completed' : 'incomplete';
  const body = responseObject(
    context,
    status,
    outputItems(plan, context),
    responsesUsage(plan.usage),
    reason,
  );
  return { type: 'body', status: 200, headers: { ...JSON_HEADERS, ...idHeader }, body: JSON.stringify(body) };
}
