import {
  type ConversationMessage,
  isModelError,
  type ModelClient,
  type ModelRequest,
  type ModelStreamEvent,
  type SessionKey,
  type SessionTape,
  type TapeAnswer,
  type TapeError,
  type TapeModelCall,
  type ToolDefinition,
} from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { withStream } from '../session-run/wrapping.js';

/**
 * A table of values stored once each: a value is found by identity first (the session sends
 * the same message objects turn after turn), then by content (a copy of one already stored),
 * so a tape grows with the conversation, not with its square.
 */
class InternTable<T extends object> {
  private readonly byObject = new WeakMap<T, number>();
  private readonly byContent = new Map<string, number>();

  constructor(readonly values: T[]) {}

  index(value: T): number {
    const known = this.byObject.get(value);
    if (known !== undefined) return known;
    const key = JSON.stringify(value);
    let index = this.byContent.get(key);
    if (index === undefined) {
      index = this.values.push(value) - 1;
      this.byContent.set(key, index);
    }
    this.byObject.set(value, index);
    return index;
  }
}

/** One session's tape as it is written: calls appended in the order they start. */
export class TapeWriter {
  readonly tape: SessionTape;
  private readonly messages: InternTable<ConversationMessage>;
  private readonly tools: InternTable<ToolDefinition>;

  constructor(key: SessionKey) {
    this.tape = { ...key, messages: [], tools: [], calls: [], toolCalls: [] };
    this.messages = new InternTable(this.tape.messages);
    this.tools = new InternTable(this.tape.tools);
  }

  /** A model call about to be sent: its entry, in place on the tape (finished by the recorder). */
  startModelCall(client: { provider: string; model: string }, request: ModelRequest): TapeModelCall {
    const { messages, tools, ...options } = request;
    const call: TapeModelCall = {
      provider: client.provider,
      model: client.model,
      startedAt: Date.now(),
      durationMs: 0,
      messages: messages.map((message) => this.messages.index(message)),
      tools: (tools ?? []).map((tool) => this.tools.index(tool)),
      options,
    };
    this.tape.calls.push(call);
    return call;
  }
}

/** Builds a `TapeAnswer` from the events of one streamed answer. */
class AnswerAssembler {
  private readonly text: string[] = [];
  private readonly reasoning: NonNullable<TapeAnswer['reasoning']> = [];
  private reasoningText: string[] = [];
  private readonly toolCalls: TapeAnswer['toolCalls'] = [];
  private readonly end: Pick<TapeAnswer, 'usage' | 'stopReason' | 'rawStopReason'> = {};

  take(event: ModelStreamEvent): void {
    switch (event.type) {
      case 'text-delta':
        this.text.push(event.text);
        break;
      case 'reasoning-delta':
        this.reasoningText.push(event.text);
        // A delta that carries a signature or redacted data closes its block (as the session reads it).
        if (
          event.signature !== undefined ||
          event.redactedData !== undefined ||
          event.providerData !== undefined
        )
          this.closeReasoning(event);
        break;
      case 'tool-call':
        this.toolCalls.push({
          id: event.call.id,
          name: event.call.name,
          arguments: event.call.rawArguments ?? JSON.stringify(event.call.arguments),
        });
        break;
      case 'usage':
        this.end.usage = event.usage;
        break;
      case 'finish':
        this.end.stopReason = event.stopReason;
        if (event.rawStopReason !== undefined) this.end.rawStopReason = event.rawStopReason;
        break;
    }
  }

  private closeReasoning(event: { signature?: string; redactedData?: string }): void {
    this.reasoning.push({
      text: this.reasoningText.join(''),
      ...(event.signature === undefined ? {} : { signature: event.signature }),
      ...(event.redactedData === undefined ? {} : { redactedData: event.redactedData }),
    });
    this.reasoningText = [];
  }

  answer(): TapeAnswer {
    if (this.reasoningText.some((text) => text.length > 0)) this.closeReasoning({});
    return {
      text: this.text.join(''),
      ...(this.reasoning.length === 0 ? {} : { reasoning: this.reasoning }),
      toolCalls: this.toolCalls,
      ...this.end,
    };
  }
}

function tapeError(error: unknown): TapeError {
  if (!isModelError(error)) return { message: errorMessage(error) };
  return {
    message: error.message,
    kind: error.kind,
    ...(error.status === undefined ? {} : { status: error.status }),
  };
}

/**
 * A client that appends each call it makes (request, answer or error, timing) to `writer`'s
 * tape; `provider` / `model` are the configured names the call went to. Everything else passes
 * through unchanged.
 */
export function recordModelClient(
  client: ModelClient,
  writer: TapeWriter,
  target: { provider: string; model: string },
): ModelClient {
  return withStream(client, async function* recorded(request, options) {
    const call = writer.startModelCall(target, request);
    const answer = new AnswerAssembler();
    let outcome: 'answer' | 'error' | undefined;
    try {
      for await (const event of client.stream(request, options)) {
        answer.take(event);
        yield event;
      }
      outcome = 'answer';
      call.answer = answer.answer();
    } catch (error) {
      outcome = 'error';
      call.error = tapeError(error);
      throw error;
    } finally {
      call.durationMs = Date.now() - call.startedAt;
      // The session stopped reading before the end (it was stopped): no answer came.
      if (outcome === undefined) call.error = { message: 'the session stopped reading the answer' };
    }
  });
}
