import type { ModelStreamEvent, ToolCall } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';
import { malformedStream, StreamFailure } from '../errors.js';
import type { StreamMapper } from '../run-call.js';
import { toolCallFromRaw } from '../tool-call-assembler.js';
import { AnthropicUsage, anthropicStopReason } from './usage.js';

/** A content block as `content_block_start` (or a whole message) carries it. */
export interface AnthropicBlock {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  data?: string;
  id?: string;
  name?: string;
  input?: unknown;
}

/** An Anthropic stream event, as far as it is read. */
export interface AnthropicEvent {
  type: string;
  index?: number;
  message?: { id?: string; model?: string; usage?: Record<string, unknown> | null };
  content_block?: AnthropicBlock;
  delta?: {
    type?: string;
    text?: string;
    thinking?: string;
    signature?: string;
    partial_json?: string;
    stop_reason?: string | null;
  };
  usage?: Record<string, unknown> | null;
}

type OpenBlock =
  | { kind: 'thinking'; signature: string }
  | { kind: 'tool'; id: string; name: string; json: string; streamed: boolean; input: unknown }
  | { kind: 'other' };

/**
 * Anthropic Messages events to protocol events. A repeated `message_start` for the open message
 * is ignored; a different message starting inside it is an invalid response.
 */
export class AnthropicStreamMapper implements StreamMapper<AnthropicEvent> {
  done = false;
  private readonly blocks = new Map<number, OpenBlock>();
  private readonly usage = new AnthropicUsage();
  private messageId: string | undefined;
  private model: string | undefined;
  private stopReason: string | undefined;
  private toolCalls = 0;

  constructor(
    private readonly configuredModel: string,
    private readonly streaming = true,
  ) {}

  handle(event: AnthropicEvent, out: ModelStreamEvent[]): void {
    if (this.done) return;
    switch (event.type) {
      case 'message_start':
        this.messageStart(event);
        return;
      case 'content_block_start':
        if (event.content_block) this.blockStart(event.index ?? 0, event.content_block, out);
        return;
      case 'content_block_delta':
        this.blockDelta(event, out);
        return;
      case 'content_block_stop':
        this.blockStop(event.index ?? 0, out);
        return;
      case 'message_delta':
        if (event.delta?.stop_reason) this.stopReason = event.delta.stop_reason;
        this.usage.absorb(event.usage);
        return;
      case 'message_stop':
        this.done = true;
        return;
    }
  }

  private messageStart(event: AnthropicEvent): void {
    const id = event.message?.id;
    if (this.messageId !== undefined) {
      if (id === this.messageId) return;
      throw malformedStream(`message ${id ?? '(no id)'} started inside unfinished message ${this.messageId}`);
    }
    this.messageId = id ?? '';
    this.model = event.message?.model;
    this.usage.absorb(event.message?.usage);
  }

  private blockStart(index: number, block: AnthropicBlock, out: ModelStreamEvent[]): void {
    switch (block.type) {
      case 'text':
        this.blocks.set(index, { kind: 'other' });
        if (block.text) out.push({ type: 'text-delta', text: block.text });
        return;
      case 'thinking':
        this.blocks.set(index, { kind: 'thinking', signature: block.signature ?? '' });
        if (block.thinking) out.push({ type: 'reasoning-delta', text: block.thinking });
        return;
      case 'redacted_thinking':
        this.blocks.set(index, { kind: 'other' });
        out.push({ type: 'reasoning-delta', text: '', redactedData: block.data ?? '' });
        return;
      case 'tool_use':
        this.blocks.set(index, {
          kind: 'tool',
          id: block.id ?? '',
          name: block.name ?? '',
          json: '',
          streamed: false,
          input: block.input,
        });
        return;
      default:
        this.blocks.set(index, { kind: 'other' });
    }
  }

  private blockDelta(event: AnthropicEvent, out: ModelStreamEvent[]): void {
    const delta = event.delta;
    if (!delta) return;
    switch (delta.type) {
      case 'text_delta':
        if (delta.text) out.push({ type: 'text-delta', text: delta.text });
        return;
      case 'thinking_delta':
        if (delta.thinking) out.push({ type: 'reasoning-delta', text: delta.thinking });
        return;
      case 'signature_delta': {
        const block = this.blocks.get(event.index ?? 0);
        if (block?.kind === 'thinking' && delta.signature) block.signature += delta.signature;
        return;
      }
      case 'input_json_delta': {
        const block = this.blocks.get(event.index ?? 0);
        if (block?.kind !== 'tool') return;
        block.streamed = true;
        if (delta.partial_json) block.json += delta.partial_json;
        return;
      }
    }
  }

  private blockStop(index: number, out: ModelStreamEvent[]): void {
    const block = this.blocks.get(index);
    this.blocks.delete(index);
    if (block?.kind === 'thinking') {
      // Closes the block; the signature must go back unchanged on the next turn.
      if (block.signature) out.push({ type: 'reasoning-delta', text: '', signature: block.signature });
    } else if (block?.kind === 'tool') {
      out.push({ type: 'tool-call', call: this.toolCall(block) });
      this.toolCalls++;
    }
  }

  /** Streamed input arrives as JSON text; a whole message carries it as an object. */
  private toolCall(block: Extract<OpenBlock, { kind: 'tool' }>): ToolCall {
    if (!block.streamed && isRecord(block.input)) {
      return { id: block.id, name: block.name, arguments: block.input };
    }
    return toolCallFromRaw(block.id, block.name, block.json);
  }

  finish(out: ModelStreamEvent[]): void {
    if (!this.done && this.streaming) {
      throw new StreamFailure({
        transport: 'connection',
        message: 'the stream ended before the message finished (no message_stop)',
      });
    }
    if (this.usage.reported) out.push({ type: 'usage', usage: this.usage.toUsage() });
    const finish: Extract<ModelStreamEvent, { type: 'finish' }> = {
      type: 'finish',
      stopReason: anthropicStopReason(this.stopReason, this.toolCalls > 0),
    };
    if (this.stopReason) finish.rawStopReason = this.stopReason;
    if (this.model && this.model !== this.configuredModel) finish.actualModel = this.model;
    if (this.messageId) finish.responseId = this.messageId;
    out.push(finish);
  }
}
