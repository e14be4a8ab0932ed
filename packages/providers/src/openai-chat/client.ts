import type { ModelCallOptions, ModelRequest, ModelStreamEvent } from '@agent/protocol';
import type OpenAI from 'openai';
import { declaredToolNames, ProviderClientBase } from '../client-base.js';
import type { ModelClientConfig } from '../config.js';
import { resolveRequestRules } from '../model-traits.js';
import { runCall } from '../run-call.js';
import { createOpenAISdk } from '../sdk-clients.js';
import { ChatConversionCache } from './conversion-cache.js';
import { buildChatBody, type ChatRequestOptions } from './request.js';
import { type ChatCompletionLike, mapChatResponse } from './response.js';
import { type ChatChunk, ChatStreamMapper } from './stream.js';

type CreateParams = OpenAI.Chat.ChatCompletionCreateParams;

/** OpenAI Chat Completions, and any server that speaks it (`openai-compatible`). */
export class OpenAIChatClient extends ProviderClientBase {
  private readonly sdk: OpenAI;
  private readonly requestOptions: ChatRequestOptions;

  constructor(config: ModelClientConfig) {
    super(config);
    this.sdk = createOpenAISdk(config);
    this.requestOptions = {
      model: config.model,
      provider: config.provider,
      rules: resolveRequestRules(config),
      ...(config.extraBody ? { extraBody: config.extraBody } : {}),
      cache: new ChatConversionCache(),
    };
  }

  stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamEvent> {
    const timeout = this.sdkTimeout(options);
    const { body, notices } = buildChatBody(request, this.requestOptions);
    const declared = declaredToolNames(request);
    return runCall<ChatChunk, ChatCompletionLike>(this.context, options, {
      stream: body.stream,
      notices,
      openStream: async (signal) =>
        (await this.sdk.chat.completions.create(body as CreateParams, {
          signal,
          timeout,
        })) as AsyncIterable<ChatChunk>,
      createMapper: () => new ChatStreamMapper(this.model, true, declared, this.provider),
      fetchResponse: async (signal) =>
        (await this.sdk.chat.completions.create(body as CreateParams, {
          signal,
          timeout,
        })) as ChatCompletionLike,
      mapResponse: (response, out) => mapChatResponse(response, this.model, declared, out, this.provider),
    });
  }
}
