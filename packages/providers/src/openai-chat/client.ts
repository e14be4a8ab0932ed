import type { ModelCallOptions, ModelRequest, ModelStreamEvent } from '@agent/protocol';
import type OpenAI from 'openai';
import { declaredToolNames, ProviderClientBase } from '../client-base.js';
import type { ModelClientConfig } from '../config.js';
import { runCall } from '../run-call.js';
import { createOpenAISdk } from '../sdk-clients.js';
import { buildChatBody, type ChatRequestOptions } from './request.js';
import { type ChatCompletionLike, mapChatResponse } from './response.js';
import { type ChatChunk, ChatStreamMapper } from './stream.js';

/** OpenAI Chat Completions, and any server that speaks it (`openai-compatible`). */
export class OpenAIChatClient extends ProviderClientBase {
  private readonly sdk: OpenAI;
  private readonly requestOptions: ChatRequestOptions;

  constructor(config: ModelClientConfig) {
    super(config);
    this.sdk = createOpenAISdk(config);
    this.requestOptions = {
      model: config.model,
      maxTokensField: config.type === 'openai' ? 'max_completion_tokens' : 'max_tokens',
      ...(config.chatReasoningField ? { reasoningField: config.chatReasoningField } : {}),
      ...(config.extraBody ? { extraBody: config.extraBody } : {}),
    };
  }

  stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamEvent> {
    const timeout = this.sdkTimeout(options);
    const body = () => buildChatBody(request, this.requestOptions);
    const declared = declaredToolNames(request);
    return runCall<ChatChunk, ChatCompletionLike>(this.context, options, {
      stream: request.stream !== false,
      openStream: async (signal) =>
        (await this.sdk.chat.completions.create(
          { ...body(), stream: true, stream_options: { include_usage: true } },
          { signal, timeout },
        )) as AsyncIterable<ChatChunk>,
      createMapper: () => new ChatStreamMapper(this.model, true, declared),
      fetchResponse: async (signal) =>
        (await this.sdk.chat.completions.create(
          { ...body(), stream: false },
          { signal, timeout },
        )) as ChatCompletionLike,
      mapResponse: (response, out) => mapChatResponse(response, this.model, declared, out),
    });
  }
}
