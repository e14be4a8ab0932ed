import type { ModelCallOptions, ModelRequest, ModelStreamEvent } from '@agent/protocol';
import type Anthropic from '@anthropic-ai/sdk';
import { ProviderClientBase } from '../client-base.js';
import type { ModelClientConfig } from '../config.js';
import { resolveRequestRules } from '../model-traits.js';
import { runCall } from '../run-call.js';
import { ADVANCED_TOOL_USE_BETA, anthropicBetaHeaderWith, createAnthropicSdk } from '../sdk-clients.js';
import { type AnthropicRequestOptions, buildAnthropicBody } from './request.js';
import { type AnthropicMessageLike, mapAnthropicResponse } from './response.js';
import { type AnthropicEvent, AnthropicStreamMapper } from './stream.js';

const MESSAGES_PATH = '/v1/messages';

/**
 * Anthropic Messages. Calls go through the SDK client's `post` (same transport, errors and SSE
 * parsing as `messages.create`) because `messages.create` writes deprecation warnings to the
 * console, and a library does no I/O.
 */
export class AnthropicClient extends ProviderClientBase {
  private readonly sdk: Anthropic;
  private readonly requestOptions: AnthropicRequestOptions;
  /** Sends deferred tools and loads them from `tool_reference` blocks (tool search, native). */
  readonly deferredTools = true;
  /** The `anthropic-beta` header of a request with deferred tools. */
  private readonly deferredToolsHeaders: Record<string, string>;

  constructor(config: ModelClientConfig) {
    super(config);
    this.sdk = createAnthropicSdk(config);
    this.deferredToolsHeaders = anthropicBetaHeaderWith(config, ADVANCED_TOOL_USE_BETA);
    this.requestOptions = {
      model: config.model,
      promptCaching: config.promptCaching ?? true,
      rules: resolveRequestRules(config),
      ...(config.extraBody ? { extraBody: config.extraBody } : {}),
    };
  }

  stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamEvent> {
    const timeout = this.sdkTimeout(options);
    const { body, notices } = buildAnthropicBody(request, this.requestOptions);
    const deferred = request.tools?.some((tool) => tool.deferLoading === true) === true;
    const headers = deferred ? this.deferredToolsHeaders : undefined;
    return runCall<AnthropicEvent, AnthropicMessageLike>(this.context, options, {
      stream: body.stream,
      notices,
      openStream: async (signal) =>
        await this.sdk.post<AsyncIterable<AnthropicEvent>>(MESSAGES_PATH, {
          body,
          stream: true,
          signal,
          timeout,
          headers,
        }),
      createMapper: () => new AnthropicStreamMapper(this.model),
      fetchResponse: async (signal) =>
        await this.sdk.post<AnthropicMessageLike>(MESSAGES_PATH, { body, signal, timeout, headers }),
      mapResponse: (message, out) => mapAnthropicResponse(message, this.model, out),
    });
  }
}
