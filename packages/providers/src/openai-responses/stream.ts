import { type ModelStreamEvent, TOOL_SEARCH_TOOL } from '@agent/protocol';
import { StreamFailure } from '../errors.js';
import { expandParallelWrapper } from '../parallel-wrapper.js';
import type { StreamMapper } from '../run-call.js';
import { toolCallFromRaw } from '../tool-call-assembler.js';
import { newToolCallId } from '../tool-call-ids.js';
import { followsCall, type ResponsesReasoningData } from './request.js';
import { responsesStopReason, responsesUsage } from './usage.js';

/** An output item, as far as it is read. */
export interface ResponsesItem {
  id?: string | null;
  type?: string;
  call_id?: string | null;
  name?: string | null;
  /** A function call's arguments text; a `tool_search_call`'s arguments object. */
  arguments?: unknown;
  encrypted_content?: string | null;
  summary?: { type?: string; text?: string }[] | null;
  content?: { type?: string; text?: string; refusal?: string }[] | null;
}

/** A response object, as far as it is read. */
export interface ResponsesResponse {
  id?: string | null;
  model?: string | null;
  status?: string | null;
  usage?: Record<string, unknown> | null;
  incomplete_details?: { reason?: string | null } | null;
  error?: { code?: string | null; message?: string | null } | null;
  output?: ResponsesItem[] | null;
}

/** A Responses stream event, as far as it is read. */
export interface ResponsesEvent {
  type: string;
  response?: ResponsesResponse | null;
  item?: ResponsesItem | null;
  item_id?: string | null;
  summary_index?: number | null;
  delta?: string | null;
  arguments?: string | null;
  /** The documented in-stream `error` event carries these at the top level. */
  code?: string | null;
  message?: string | null;
}

interface PendingCall {
  callId: string;
  name: string;
  args: string;
}

/** Responses API events to protocol events. Reading stops at the first terminal event. */
export class ResponsesStreamMapper implements StreamMapper<ResponsesEvent> {
  done = false;
  private readonly calls = new Map<string, PendingCall>();
  /** Reasoning items and message items that streamed deltas (done events then carry no text). */
  private readonly streamed = new Set<string>();
  private readonly summaryIndex = new Map<string, number>();
  private toolCalls = 0;
  private refused = false;
  private response: ResponsesResponse | undefined;
  /** The last message or function call seen, for `ResponsesReasoningData.after`. */
  private lastItem = 'start';

  constructor(
    private readonly configuredModel: string,
    private readonly declaredTools: ReadonlySet<string>,
    private readonly streaming = true,
  ) {}

  handle(event: ResponsesEvent, out: ModelStreamEvent[]): void {
    if (this.done) return;
    switch (event.type) {
      case 'response.created':
      case 'response.in_progress':
        if (event.response) this.response = event.response;
        return;
      case 'response.output_text.delta':
        this.markStreamed(event.item_id);
        if (event.delta) out.push({ type: 'text-delta', text: event.delta });
        return;
      case 'response.refusal.delta':
        this.markStreamed(event.item_id);
        this.refused = true;
        if (event.delta) out.push({ type: 'text-delta', text: event.delta });
        return;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        this.reasoningDelta(event, out);
        return;
      case 'response.output_item.added':
        if (event.item?.type === 'function_call' && event.item.id) {
          const { id, call_id, name, arguments: args } = event.item;
          this.calls.set(id, {
            callId: call_id ?? id,
            name: name ?? '',
            args: typeof args === 'string' ? args : '',
          });
        }
        if (event.item) this.noteItem(event.item);
        return;
      case 'response.function_call_arguments.delta': {
        const call = event.item_id ? this.calls.get(event.item_id) : undefined;
        if (call && event.delta) call.args += event.delta;
        return;
      }
      case 'response.function_call_arguments.done': {
        const call = event.item_id ? this.calls.get(event.item_id) : undefined;
        if (call && typeof event.arguments === 'string') call.args = event.arguments;
        return;
      }
      case 'response.output_item.done':
        if (event.item) this.itemDone(event.item, out);
        return;
      case 'response.completed':
      case 'response.incomplete':
        if (event.response) this.response = event.response;
        this.done = true;
        return;
      case 'response.failed':
        throw new StreamFailure({
          code: event.response?.error?.code ?? 'response_failed',
          message: event.response?.error?.message ?? 'the response failed',
        });
      case 'error':
        throw new StreamFailure({
          code: event.code ?? 'error',
          message: event.message ?? 'error event in the stream',
        });
    }
  }

  private markStreamed(itemId: string | null | undefined): void {
    if (itemId) this.streamed.add(itemId);
  }

  private reasoningDelta(event: ResponsesEvent, out: ModelStreamEvent[]): void {
    if (!event.delta) return;
    const itemId = event.item_id ?? '';
    this.markStreamed(itemId);
    const index = event.summary_index ?? 0;
    const previous = this.summaryIndex.get(itemId);
    this.summaryIndex.set(itemId, index);
    // Summary parts are paragraphs of one block.
    const text = previous !== undefined && previous !== index ? `\n\n${event.delta}` : event.delta;
    out.push({ type: 'reasoning-delta', text });
  }

  /** Remembers where the output is, so reasoning can say which item it came after. */
  private noteItem(item: ResponsesItem): void {
    if (item.type === 'message') this.lastItem = 'message';
    else if (item.type === 'function_call' || item.type === 'tool_search_call') {
      const callId = item.call_id || (item.id ? this.calls.get(item.id)?.callId : undefined);
      if (callId) this.lastItem = followsCall(callId);
    }
  }

  private itemDone(item: ResponsesItem, out: ModelStreamEvent[]): void {
    const streamed = item.id ? this.streamed.has(item.id) : false;
    this.noteItem(item);
    if (item.type === 'function_call') this.functionCallDone(item, out);
    else if (item.type === 'tool_search_call') this.searchCallDone(item, out);
    else if (item.type === 'reasoning') this.reasoningDone(item, streamed, out);
    else if (item.type === 'message' && !streamed) this.messageText(item, out);
  }

  private functionCallDone(item: ResponsesItem, out: ModelStreamEvent[]): void {
    const pending = item.id ? this.calls.get(item.id) : undefined;
    const id = item.call_id || pending?.callId || item.id || newToolCallId();
    const name = item.name ?? pending?.name ?? '';
    const args = typeof item.arguments === 'string' ? item.arguments : (pending?.args ?? '');
    for (const call of expandParallelWrapper(toolCallFromRaw(id, name, args), this.declaredTools)) {
      out.push({ type: 'tool-call', call });
      this.toolCalls++;
    }
  }

  /** The model's client-executed tool search: a call of the session's own `tool_search`. */
  private searchCallDone(item: ResponsesItem, out: ModelStreamEvent[]): void {
    const id = item.call_id || item.id || newToolCallId();
    const args = typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {});
    out.push({ type: 'tool-call', call: toolCallFromRaw(id, TOOL_SEARCH_TOOL, args) });
    this.toolCalls++;
  }

  /** Closes a reasoning block with the item id and encrypted content the next turn must send back. */
  private reasoningDone(item: ResponsesItem, streamed: boolean, out: ModelStreamEvent[]): void {
    const text = streamed ? '' : (item.summary ?? []).map((part) => part.text ?? '').join('\n\n');
    if (!item.id || (!item.encrypted_content && !streamed && text === '')) return;
    const providerData: ResponsesReasoningData = {
      api: 'openai-responses',
      itemId: item.id,
      after: this.lastItem,
    };
    if (item.encrypted_content) providerData.encryptedContent = item.encrypted_content;
    out.push({
      type: 'reasoning-delta',
      text,
      providerData: providerData as unknown as Record<string, unknown>,
    });
  }

  private messageText(item: ResponsesItem, out: ModelStreamEvent[]): void {
    for (const part of item.content ?? []) {
      if (part.type === 'output_text' && part.text) out.push({ type: 'text-delta', text: part.text });
      if (part.type === 'refusal' && part.refusal) {
        this.refused = true;
        out.push({ type: 'text-delta', text: part.refusal });
      }
    }
  }

  finish(out: ModelStreamEvent[]): void {
    if (!this.done && this.streaming) {
      throw new StreamFailure({
        transport: 'connection',
        message: 'the stream ended before the response completed (no response.completed)',
      });
    }
    const response = this.response;
    if (response?.usage) out.push({ type: 'usage', usage: responsesUsage(response.usage) });
    const status = response?.status ?? undefined;
    const reason = response?.incomplete_details?.reason ?? undefined;
    const finish: Extract<ModelStreamEvent, { type: 'finish' }> = {
      type: 'finish',
      stopReason: responsesStopReason(status, reason, this.toolCalls > 0, this.refused),
    };
    const raw = reason ?? status;
    if (raw) finish.rawStopReason = raw;
    if (response?.model && response.model !== this.configuredModel) finish.actualModel = response.model;
    if (response?.id) finish.responseId = response.id;
    out.push(finish);
  }
}
