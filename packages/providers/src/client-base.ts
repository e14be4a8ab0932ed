import type { ModelCallOptions, ModelClient, ModelRequest, ModelStreamEvent } from '@agent/protocol';
import { type ModelClientConfig, type ModelPricing, type ProviderType, validateConfig } from './config.js';
import { lookupPricing } from './pricing.js';
import { collectSecrets } from './redact.js';
import type { CallContext } from './run-call.js';
import { DEFAULT_SDK_TIMEOUT_MS } from './sdk-clients.js';
import { openAiTokensBound, tokenCounterFor } from './token-count.js';

/** Provider types whose APIs make parallel tool calls natively (several `tool_calls` / `tool_use` blocks per answer). */
const NATIVE_PARALLEL_TOOL_CALLS: ReadonlySet<ProviderType> = new Set([
  'openai',
  'openai-responses',
  'anthropic',
]);

/** A `ModelClient` built from a `ModelClientConfig`, with what the runtime needs to know about it. */
export interface ProviderModelClient extends ModelClient {
  readonly type: ProviderType;
  /** Context window from the configuration, if given. */
  readonly contextWindow?: number;
  /** Prices used for `costUsd` when the provider reports no cost (configured, else list price). */
  readonly pricing?: ModelPricing;
}

/** The names of the tools a request declares. */
export function declaredToolNames(request: ModelRequest): ReadonlySet<string> {
  return new Set(request.tools?.map((tool) => tool.name));
}

/** What every client shares: validated config, error context, pricing and timeouts. */
export abstract class ProviderClientBase implements ProviderModelClient {
  readonly type: ProviderType;
  readonly provider: string;
  readonly model: string;
  readonly contextWindow?: number;
  readonly pricing?: ModelPricing;
  /** OpenAI's and Anthropic's APIs return several tool calls per answer; an OpenAI-compatible server may not (unknown). */
  readonly parallelToolCalls?: boolean;
  /** Exact token counts, for models whose tokenizer the providers have (OpenAI's, loaded on first use). */
  readonly countTokens?: (text: string) => number;
  /** Never below `countTokens`, and loads nothing: set with it. */
  readonly countTokensBound?: (text: string) => number;
  protected readonly context: CallContext;

  constructor(protected readonly config: ModelClientConfig) {
    validateConfig(config);
    this.type = config.type;
    this.provider = config.provider;
    this.model = config.model;
    if (config.contextWindow !== undefined) this.contextWindow = config.contextWindow;
    if (NATIVE_PARALLEL_TOOL_CALLS.has(config.type)) this.parallelToolCalls = true;
    const pricing = lookupPricing(config.type, config.model, config.pricing);
    if (pricing !== undefined) this.pricing = pricing;
    const countTokens = tokenCounterFor(config.model, config.tokenizer);
    if (countTokens !== undefined) {
      this.countTokens = countTokens;
      this.countTokensBound = openAiTokensBound;
    }
    this.context = {
      provider: config.provider,
      model: config.model,
      secrets: collectSecrets(config),
      ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
      ...(pricing === undefined ? {} : { pricing }),
    };
  }

  /** The SDK's own (pre-header) timeout for one call; the call scope enforces the whole-call one. */
  protected sdkTimeout(options: ModelCallOptions | undefined): number {
    return options?.timeoutMs ?? this.config.timeoutMs ?? DEFAULT_SDK_TIMEOUT_MS;
  }

  abstract stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamEvent>;
}
