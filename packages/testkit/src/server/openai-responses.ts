import { type StopReason, TOOL_SEARCH_TOOL, type TokenUsage } from '@agent/protocol';
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

/** The model's client-executed search: arguments as an object, as the API gives them. */
function searchCallItem(call: AnswerPlan['toolCalls'][number], id: string): Item {
  let args: unknown = call.argumentsText;
  try {
    args = JSON.parse(call.argumentsText);
  } catch {
    // Raw scripted arguments go as they are.
  }
  return {
    id,
    type: 'tool_search_call',
    status: 'completed',
    call_id: call.id,
    execution: 'client',
    arguments: args,
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
    if (context.clientToolSearch === true && call.name === TOOL_SEARCH_TOOL) {
      items.push(searchCallItem(call, `tsc_testkit_${n}_${index + 1}`));
      return;
    }
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

/** Collects the typed events of one streamed response, each with its `sequence_number`. */
class ResponsesEventStream {
  readonly frames: Frame[] = [];

  emit(type: string, data: Item, delta = false): void {
    this.frames.push(
      sseFrame({ type, sequence_number: this.frames.length, ...data }, { event: type, delta }),
    );
  }

  /** Ends the stream as the real API does when it fails mid-answer: an `error` event, then `response.failed`. */
  fail(context: RenderContext, error: NonNullable<RenderContext['midStreamError']>): Frame[] {
    this.frames.push(...midStreamErrorFrames(error, context, this.frames.length));
    this.emit('response.failed', { response: responseObject(context, 'failed', [], null) });
    return this.frames;
  }
}

/** Where an output item's events point: its id and its place in `output`. */
type ItemPosition = { item_id: unknown; output_index: number };

/** A reasoning item: its summary streamed as one summary part, when there is text to stream. */
function streamReasoningItem(
  events: ResponsesEventStream,
  at: ItemPosition,
  item: Item,
  block: AnswerPlan['reasoning'][number] | undefined,
): void {
  const { output_index } = at;
  events.emit('response.output_item.added', { output_index, item: { ...item, summary: [] } });
  if (block !== undefined && block.deltas.length > 0) {
    const part = { ...at, summary_index: 0 };
    events.emit('response.reasoning_summary_part.added', {
      ...part,
      part: { type: 'summary_text', text: '' },
    });
    for (const delta of block.deltas)
      events.emit('response.reasoning_summary_text.delta', { ...part, delta }, true);
    events.emit('response.reasoning_summary_text.done', { ...part, text: block.text });
    events.emit('response.reasoning_summary_part.done', {
      ...part,
      part: { type: 'summary_text', text: block.text },
    });
  }
  events.emit('response.output_item.done', { output_index, item });
}

/** The message item up to its last text (or refusal) delta; a mid-stream error cuts in after it. */
function openMessageItem(events: ResponsesEventStream, at: ItemPosition, item: Item, plan: AnswerPlan): void {
  const refusal = plan.stopReason === 'refusal';
  const part = { ...at, content_index: 0 };
  events.emit('response.output_item.added', {
    output_index: at.output_index,
    item: { ...item, status: 'in_progress', content: [] },
  });
  events.emit('response.content_part.added', {
    ...part,
    part: refusal
      ? { type: 'refusal', refusal: '' }
      : { type: 'output_text', annotations: [], logprobs: [], text: '' },
  });
  for (const delta of plan.textDeltas) {
    if (refusal) events.emit('response.refusal.delta', { ...part, delta }, true);
    else events.emit('response.output_text.delta', { ...part, delta, logprobs: [] }, true);
  }
}

/** The `done` events that close the message item opened by `openMessageItem`. */
function closeMessageItem(
  events: ResponsesEventStream,
  at: ItemPosition,
  item: Item,
  plan: AnswerPlan,
): void {
  const part = { ...at, content_index: 0 };
  if (plan.stopReason === 'refusal') events.emit('response.refusal.done', { ...part, refusal: plan.text });
  else events.emit('response.output_text.done', { ...part, text: plan.text, logprobs: [] });
  events.emit('response.content_part.done', { ...part, part: (item.content as Item[])[0] });
  events.emit('response.output_item.done', { output_index: at.output_index, item });
}

/** A function-call item: its arguments in token-sized pieces. */
function streamFunctionCallItem(
  events: ResponsesEventStream,
  at: ItemPosition,
  item: Item,
  call: AnswerPlan['toolCalls'][number] | undefined,
): void {
  const argumentsText = call?.argumentsText ?? '';
  events.emit('response.output_item.added', {
    output_index: at.output_index,
    item: { ...item, status: 'in_progress', arguments: '' },
  });
  for (const delta of splitIntoPieces(argumentsText, ARGUMENT_PIECE_CHARS)) {
    if (delta !== '') events.emit('response.function_call_arguments.delta', { ...at, delta }, true);
  }
  events.emit('response.function_call_arguments.done', { ...at, arguments: argumentsText });
  events.emit('response.output_item.done', { output_index: at.output_index, item });
}

function streamFrames(plan: AnswerPlan, context: RenderContext): Frame[] {
  const events = new ResponsesEventStream();
  events.emit('response.created', { response: responseObject(context, 'in_progress', [], null) });
  events.emit('response.in_progress', { response: responseObject(context, 'in_progress', [], null) });
  const error = context.midStreamError;
  const items = outputItems(plan, context);
  let reasoningIndex = 0;
  let callIndex = 0;
  for (const [output_index, item] of items.entries()) {
    const at = { item_id: item.id, output_index };
    if (item.type === 'reasoning') {
      streamReasoningItem(events, at, item, plan.reasoning[reasoningIndex++]);
    } else if (item.type === 'message') {
      openMessageItem(events, at, item, plan);
      if (error !== undefined) return events.fail(context, error);
      closeMessageItem(events, at, item, plan);
    } else if (item.type === 'tool_search_call') {
      if (error !== undefined) return events.fail(context, error);
      callIndex++;
      events.emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress' } });
      events.emit('response.output_item.done', { output_index, item });
    } else {
      if (error !== undefined) return events.fail(context, error);
      streamFunctionCallItem(events, at, item, plan.toolCalls[callIndex++]);
    }
  }
  if (error !== undefined) return events.fail(context, error);
  const reason = incompleteReason(plan);
  const status = reason === undefined ? 'completed' : 'incomplete';
  const response = responseObject(context, status, items, responsesUsage(plan.usage), reason);
  events.emit(`response.${status}`, { response });
  return events.frames;
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
