import type { ModelCallOptions, ModelRequest, ModelStreamEvent } from '@agent/protocol';
import type OpenAI from 'openai';
import { declaredToolNames, ProviderClientBase } from '../client-base.js';
import type { ModelClientConfig } from '../config.js';
import { resolveRequestRules } from '../model-traits.js';
import { runCall } from '../run-call.js';
import { createOpenAISdk } from '../sdk-clients.js';
import { buildResponsesBody, type ResponsesRequestOptions } from './request.js';
import { mapResponsesResponse } from './response.js';
import { type ResponsesEvent, type ResponsesResponse, ResponsesStreamMapper } from './stream.js';

type CreateParams = OpenAI.Responses.ResponseCreateParams;

/** The OpenAI Responses API (`POST /v1/responses`), stateless (`store: false`). */
export class OpenAIResponsesClient extends ProviderClientBase {
  private readonly sdk: OpenAI;
  private readonly requestOptions: ResponsesRequestOptions;
  /** Sends deferred tools and loads them through `tool_search_output` items (tool search, native). */
  readonly deferredTools = true;

  constructor(config: ModelClientConfig) {
    super(config);
    this.sdk = createOpenAISdk(config);
    this.requestOptions = {
      model: config.model,
      reasoningSummary: config.reasoningSummary ?? 'none',
      rules: resolveRequestRules(config),
      ...(config.extraBody ? { extraBody: config.extraBody } : {}),
    };
  }

  stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamEvent> {
    const timeout = this.sdkTimeout(options);
    const { body, notices } = buildResponsesBody(request, this.requestOptions);
    const declared = declaredToolNames(request);
    return runCall<ResponsesEvent, ResponsesResponse>(this.context, options, {
      stream: body.stream,
      notices,
      openStream: async (signal) =>
        (await this.sdk.responses.create(body as CreateParams, {
          signal,
          timeout,
        })) as AsyncIterable<ResponsesEvent>,
      createMapper: () => new ResponsesStreamMapper(this.model, declared),
      fetchResponse: async (signal) =>
        (await this.sdk.responses.create(body as CreateParams, { signal, timeout })) as ResponsesResponse,
      mapResponse: (response, out) => mapResponsesResponse(response, this.model, declared, out),
    });
  }
}
