import type { ModelStreamEvent } from '@agent/protocol';
import { StreamFailure } from '../errors.js';
import { expandParallelWrapper } from '../parallel-wrapper.js';
import type { StreamMapper } from '../run-call.js';
import { ToolCallAssembler } from '../tool-call-assembler.js';
import { ReasoningDetailsCollector } from './reasoning-details.js';
import { chatStopReason, chatUsage } from './usage.js';

/** Mistral sends content as typed parts, with reasoning under `thinking`. */
interface ChatContentPart {
  type?: string;
  text?: string;
  thinking?: { type?: string; text?: string }[] | string;
}

/** The fields of a chunk delta (or a whole message) that servers actually send. */
export interface ChatDelta {
  content?: string | ChatContentPart[] | null;
  /** DeepSeek, Alibaba, xAI, Moonshot, vLLM. */
  reasoning_content?: string | null;
  /** Groq, OpenRouter, Ollama. */
  reasoning?: string | null;
  /** OpenRouter: structured reasoning to send back unchanged (the text also comes in `reasoning`). */
  reasoning_details?: unknown[] | null;
  refusal?: string | null;
  tool_calls?:
    | {
        index?: number | null;
        id?: string | null;
        function?: { name?: string | null; arguments?: string | null } | null;
      }[]
    | null;
}

export interface ChatChunk {
  id?: string | null;
  model?: string | null;
  /** OpenRouter: who served the request. */
  provider?: string | null;
  choices?: { index?: number | null; delta?: ChatDelta | null; finish_reason?: string | null }[] | null;
  usage?: Record<string, unknown> | null;
  x_groq?: { usage?: Record<string, unknown> | null } | null;
}

/** Chat Completions chunks (or one whole answer, see `response.ts`) to protocol events. */
export class ChatStreamMapper implements StreamMapper<ChatChunk> {
  readonly done = false;
  private readonly assembler = new ToolCallAssembler();
  private readonly reasoningDetails = new ReasoningDetailsCollector();
  private finishReason: string | undefined;
  private usage: Record<string, unknown> | undefined;
  private responseId: string | undefined;
  private reportedModel: string | undefined;
  private reportedProvider: string | undefined;
  private refused = false;

  constructor(
    private readonly configuredModel: string,
    private readonly streaming: boolean,
    /** Names of the tools the request declared (for the parallel-wrapper check). */
    private readonly declaredTools: ReadonlySet<string> = new Set(),
    /** The configured provider key, kept with reasoning details (they go back only to it). */
    private readonly provider = '',
  ) {}

  handle(chunk: ChatChunk, out: ModelStreamEvent[]): void {
    if (!this.responseId && chunk.id) this.responseId = chunk.id;
    if (!this.reportedModel && chunk.model) this.reportedModel = chunk.model;
    if (!this.reportedProvider && typeof chunk.provider === 'string') this.reportedProvider = chunk.provider;
    const usage = chunk.usage ?? chunk.x_groq?.usage;
    if (usage) this.usage = usage;
    if (!chunk.choices) return;
    for (const choice of chunk.choices) {
      if ((choice.index ?? 0) !== 0) continue;
      if (choice.delta) this.handleDelta(choice.delta, out);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
  }

  private handleDelta(delta: ChatDelta, out: ModelStreamEvent[]): void {
    // Some servers send both fields, one of them empty: the text is in the other.
    const reasoning = delta.reasoning_content || delta.reasoning;
    if (typeof reasoning === 'string' && reasoning !== '')
      out.push({ type: 'reasoning-delta', text: reasoning });
    if (delta.reasoning_details) this.reasoningDetails.add(delta.reasoning_details);
    const content = delta.content;
    if (typeof content === 'string') {
      if (content !== '') out.push({ type: 'text-delta', text: content });
    } else if (Array.isArray(content)) {
      for (const part of content) this.handlePart(part, out);
    }
    if (typeof delta.refusal === 'string' && delta.refusal !== '') {
      this.refused = true;
      out.push({ type: 'text-delta', text: delta.refusal });
    }
    if (delta.tool_calls) {
      for (const call of delta.tool_calls) {
        this.assembler.add(call.index, call.id, call.function?.name, call.function?.arguments);
      }
    }
  }

  private handlePart(part: ChatContentPart, out: ModelStreamEvent[]): void {
    if (part.type === 'text' && part.text) {
      out.push({ type: 'text-delta', text: part.text });
    } else if (part.type === 'thinking') {
      const thinking = part.thinking;
      if (typeof thinking === 'string') {
        if (thinking !== '') out.push({ type: 'reasoning-delta', text: thinking });
      } else if (Array.isArray(thinking)) {
        for (const piece of thinking) {
          if (piece.text) out.push({ type: 'reasoning-delta', text: piece.text });
        }
      }
    }
  }

  finish(out: ModelStreamEvent[]): void {
    if (this.finishReason === undefined && this.streaming) {
      throw new StreamFailure({
        transport: 'connection',
        message: 'the stream ended before the model finished (no finish_reason)',
      });
    }
    const details = this.reasoningDetails.providerData(this.provider);
    if (details !== undefined) {
      out.push({
        type: 'reasoning-delta',
        text: '',
        providerData: details as unknown as Record<string, unknown>,
      });
    }
    let calls = 0;
    for (const assembled of this.assembler.finish()) {
      for (const call of expandParallelWrapper(assembled, this.declaredTools)) {
        out.push({ type: 'tool-call', call });
        calls++;
      }
    }
    if (this.usage) out.push({ type: 'usage', usage: chatUsage(this.usage) });
    const finish: Extract<ModelStreamEvent, { type: 'finish' }> = {
      type: 'finish',
      stopReason: chatStopReason(this.finishReason, calls > 0, this.refused),
    };
    if (this.finishReason !== undefined) finish.rawStopReason = this.finishReason;
    if (this.reportedModel && this.reportedModel !== this.configuredModel)
      finish.actualModel = this.reportedModel;
    if (this.reportedProvider) finish.actualProvider = this.reportedProvider;
    if (this.responseId) finish.responseId = this.responseId;
    out.push(finish);
  }
}
