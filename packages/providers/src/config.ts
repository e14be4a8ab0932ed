import { ConfigError, REASONING_EFFORTS, type ReasoningEffort } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';

/** Which wire protocol a client speaks. */
export type ProviderType = 'openai' | 'openai-responses' | 'anthropic' | 'openai-compatible';

export const PROVIDER_TYPES: readonly ProviderType[] = [
  'openai',
  'openai-responses',
  'anthropic',
  'openai-compatible',
];

/** A sampling parameter of a request that the config may keep from being sent (`omitSampling`). */
export type SamplingParam = 'temperature' | 'topP' | 'topK' | 'repeatPenalty';

/** Every sampling parameter, in the order notices name them. */
export const SAMPLING_PARAMS: readonly SamplingParam[] = ['temperature', 'topP', 'topK', 'repeatPenalty'];

/** The body field an OpenAI-compatible server reads the repeat penalty from. */
export type RepeatPenaltyField = 'repetition_penalty' | 'repeat_penalty';

export const REPEAT_PENALTY_FIELDS: readonly RepeatPenaltyField[] = ['repetition_penalty', 'repeat_penalty'];

/** Prices in USD per million tokens. */
export interface ModelPricing {
  /** Uncached input tokens. */
  input: number;
  output: number;
  /** Input tokens read from the prompt cache; defaults to `input`. */
  cachedInput?: number;
  /** Input tokens written to the prompt cache (Anthropic); defaults to `input`. */
  cacheWrite?: number;
  /**
   * Prices of a call whose input is above `thresholdTokens` (Anthropic's 1M-context beta
   * charges more above 200k input tokens); the whole call is priced at them.
   */
  longContext?: { thresholdTokens: number } & Omit<ModelPricing, 'longContext'>;
}

/** Values of `toolCallIdFormat` (see docs/providers.md). */
export const TOOL_ID_FORMATS = ['openai', 'anthropic', 'mistral', 'any'] as const;

/** Everything `createModelClient` needs to build one client for one model. */
export interface ModelClientConfig {
  type: ProviderType;
  /** The provider key the runtime uses, e.g. `openai`, `anthropic`, `local`. Reported as `client.provider`. */
  provider: string;
  /** Model name as the API expects it, e.g. `gpt-4.1-mini`, `claude-sonnet-4-5`, `qwen3:8b`. */
  model: string;
  /**
   * API key. Required for `openai`, `openai-responses` and `anthropic` unless `baseURL` is set;
   * optional for `openai-compatible` (no `Authorization` header is sent without one).
   */
  apiKey?: string;
  /** API root. Required for `openai-compatible` (e.g. `http://localhost:11434/v1` for Ollama). */
  baseURL?: string;
  /** Extra HTTP headers sent with every request (values are treated as secrets in errors). */
  headers?: Record<string, string>;
  /** Default whole-call timeout in milliseconds; `ModelCallOptions.timeoutMs` wins when given. */
  timeoutMs?: number;
  /** Prices for this model; overrides the built-in list-price table. */
  pricing?: ModelPricing;
  /** Context window in tokens, passed through for the runtime's context guard. */
  contextWindow?: number;
  /**
   * Which tokenizer `countTokens` uses: `openai` (o200k_base), or any other value for none (the
   * session's context guard then estimates). Default: `openai` for OpenAI model names
   * (`gpt-*`, `o1`..., `chatgpt-*`, `text-*`), none otherwise.
   */
  tokenizer?: string;
  /**
   * Fields merged into every request body last, over anything the client set (OpenRouter
   * `provider` routing, Ollama `options`); a `null` value removes the client's field.
   * `stream` is not allowed (the request's `stream` option decides).
   */
  extraBody?: Record<string, unknown>;
  /** Anthropic: put `cache_control` marks on the stable prefix (default true). */
  promptCaching?: boolean;
  /**
   * OpenAI Responses: the reasoning summary to ask for when reasoning is on. Default `none`
   * (not asked): OpenAI refuses summaries to organisations it has not verified.
   */
  reasoningSummary?: 'auto' | 'concise' | 'detailed' | 'none';
  /**
   * Chat Completions: send earlier reasoning back on assistant messages under this field.
   * DeepSeek and Moonshot thinking models want `reasoning_content` during tool loops (the default
   * for `deepseek-reasoner` and `kimi-k2-thinking`); off for other models.
   */
  chatReasoningField?: 'reasoning_content' | 'reasoning';
  /** A `fetch` implementation for the SDK (proxies, custom agents). */
  fetch?: typeof fetch;

  // Overrides of the model table (`model-traits.ts`); each defaults from the model name and host.

  /** Treat the model as an OpenAI reasoning model (o-series, gpt-5 family); detected from the name. */
  reasoningModel?: boolean;
  /**
   * Sampling parameters never sent to this model. Default: `temperature` and `topP` for OpenAI
   * reasoning models (unless the call's effort is `none` on a model that accepts it), none for
   * others. `[]` always sends them (where the API takes them at all: `topK` goes to Anthropic
   * and OpenAI-compatible servers, `repeatPenalty` to OpenAI-compatible servers).
   */
  omitSampling?: readonly SamplingParam[];
  /**
   * OpenAI-compatible servers: the body field of the repeat penalty. Default
   * `repetition_penalty` (vLLM, SGLang, OpenRouter, TGI); llama.cpp's server and LM Studio read
   * `repeat_penalty`. api.mistral.ai gets none unless this is set.
   */
  repeatPenaltyField?: RepeatPenaltyField;
  /** Reasoning efforts the model accepts; a call's effort maps to the nearest of them. */
  reasoningEfforts?: readonly ReasoningEffort[];
  /** Anthropic: the model's output limit; `max_tokens` (thinking budget + answer) is capped at it. */
  outputTokenLimit?: number;
  /** Chat Completions: send `stream_options.include_usage` on streamed calls (default true; false for api.mistral.ai). */
  streamUsage?: boolean;
  /** Chat Completions: the field for `maxOutputTokens` (default `max_completion_tokens` for `openai` and reasoning models, else `max_tokens`). */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** How tool-call ids are rewritten for this API (default by type; `mistral` for Mistral hosts and models). */
  toolCallIdFormat?: (typeof TOOL_ID_FORMATS)[number];
  /** Chat Completions: an assistant message between tool results and a user message (Mistral refuses user after tool). */
  assistantAfterToolResults?: boolean;
  /** Anthropic: the 1M-token context beta header, and the long-context prices above 200k input tokens. */
  longContext?: boolean;
}

const SOURCE = 'createModelClient';

/** A `ConfigError` naming the field, the value (never a secret) and what is allowed. */
function fail(
  field: string,
  value: unknown,
  allowed: string,
  options: { message?: string; secret?: boolean } = {},
): never {
  throw new ConfigError({ source: SOURCE, field, value, allowed, ...options });
}

function checkNonEmpty(config: ModelClientConfig, field: 'provider' | 'model'): void {
  const value: unknown = config[field];
  if (typeof value !== 'string' || value.trim() === '') fail(field, value, 'a non-empty string');
}

function checkPositive(value: unknown, field: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    fail(field, value, 'a positive number');
}

function checkPrices(pricing: Omit<ModelPricing, 'longContext'>, path: string): void {
  for (const field of ['input', 'output', 'cachedInput', 'cacheWrite'] as const) {
    const value: unknown = pricing[field];
    const required = field === 'input' || field === 'output';
    if (value === undefined && !required) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      fail(`${path}.${field}`, value, 'a number >= 0 (USD per million tokens)');
    }
  }
}

function checkPricing(pricing: ModelPricing | undefined): void {
  if (pricing === undefined) return;
  if (!isRecord(pricing)) fail('pricing', pricing, 'an object of prices');
  checkPrices(pricing, 'pricing');
  const tier = pricing.longContext;
  if (tier === undefined) return;
  if (!isRecord(tier)) fail('pricing.longContext', tier, 'an object of prices with thresholdTokens');
  checkPositive(tier.thresholdTokens, 'pricing.longContext.thresholdTokens');
  if (tier.thresholdTokens === undefined) {
    fail('pricing.longContext.thresholdTokens', undefined, 'a positive number of input tokens', {
      message: 'pricing.longContext.thresholdTokens is required',
    });
  }
  checkPrices(tier, 'pricing.longContext');
}

function checkOneOf(value: unknown, field: string, allowed: readonly string[]): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || !allowed.includes(value))
    fail(field, value, `one of ${allowed.join(', ')}`);
}

function checkBoolean(value: unknown, field: string): void {
  if (value !== undefined && typeof value !== 'boolean') fail(field, value, 'true or false');
}

function checkList(value: unknown, field: string, allowed: readonly string[]): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) fail(field, value, `a list of ${allowed.join(', ')}`);
  for (const item of value) checkOneOf(item, `${field}[]`, allowed);
}

/** The model-table overrides and request-shape settings. */
function checkRequestSettings(config: ModelClientConfig): void {
  checkBoolean(config.reasoningModel, 'reasoningModel');
  checkList(config.omitSampling, 'omitSampling', SAMPLING_PARAMS);
  checkOneOf(config.repeatPenaltyField, 'repeatPenaltyField', REPEAT_PENALTY_FIELDS);
  if (config.repeatPenaltyField !== undefined && config.type !== 'openai-compatible') {
    fail('repeatPenaltyField', config.repeatPenaltyField, 'absent for this type', {
      message: `repeatPenaltyField applies to type "openai-compatible" only (this provider is "${config.type}", whose API has no repeat penalty)`,
    });
  }
  checkList(config.reasoningEfforts, 'reasoningEfforts', REASONING_EFFORTS);
  if (config.reasoningEfforts !== undefined && config.reasoningEfforts.length === 0) {
    fail(
      'reasoningEfforts',
      config.reasoningEfforts,
      `a list of at least one of ${REASONING_EFFORTS.join(', ')}`,
    );
  }
  checkPositive(config.outputTokenLimit, 'outputTokenLimit');
  checkBoolean(config.streamUsage, 'streamUsage');
  checkOneOf(config.maxTokensField, 'maxTokensField', ['max_tokens', 'max_completion_tokens']);
  checkOneOf(config.toolCallIdFormat, 'toolCallIdFormat', TOOL_ID_FORMATS);
  checkBoolean(config.assistantAfterToolResults, 'assistantAfterToolResults');
  checkBoolean(config.longContext, 'longContext');
  if (config.extraBody !== undefined) {
    if (!isRecord(config.extraBody)) fail('extraBody', config.extraBody, 'an object');
    if ('stream' in config.extraBody) {
      fail('extraBody.stream', config.extraBody.stream, 'absent', {
        message: "extraBody.stream is not allowed: whether a call streams is the request's `stream` option",
      });
    }
  }
}

function checkBaseURL(config: ModelClientConfig): void {
  if (config.baseURL === undefined) {
    if (config.type === 'openai-compatible') {
      fail('baseURL', undefined, 'an http(s) URL', {
        message: 'baseURL is required for type "openai-compatible" (e.g. "http://localhost:11434/v1")',
      });
    }
    return;
  }
  if (typeof config.baseURL !== 'string' || !/^https?:\/\//i.test(config.baseURL)) {
    fail('baseURL', config.baseURL, 'an http(s) URL');
  }
}

/**
 * Throws a `ConfigError` (code `configuration`) when the configuration cannot work. Never echoes
 * the API key or a header value.
 */
export function validateConfig(config: ModelClientConfig): void {
  if (!isRecord(config)) fail('config', config, 'an object');
  if (!PROVIDER_TYPES.includes(config.type)) fail('type', config.type, `one of ${PROVIDER_TYPES.join(', ')}`);
  checkNonEmpty(config, 'provider');
  checkNonEmpty(config, 'model');
  checkBaseURL(config);
  if (config.apiKey !== undefined && (typeof config.apiKey !== 'string' || config.apiKey === '')) {
    fail('apiKey', config.apiKey, 'a non-empty string when given', { secret: true });
  }
  if (config.apiKey === undefined && config.baseURL === undefined) {
    fail('apiKey', undefined, 'a non-empty string', {
      message: `apiKey is required for type "${config.type}" without a baseURL`,
    });
  }
  checkPositive(config.timeoutMs, 'timeoutMs');
  checkPositive(config.contextWindow, 'contextWindow');
  if (config.tokenizer !== undefined && (typeof config.tokenizer !== 'string' || config.tokenizer === '')) {
    fail('tokenizer', config.tokenizer, 'a tokenizer name such as "openai"');
  }
  checkPricing(config.pricing);
  checkRequestSettings(config);
  if (config.headers !== undefined) {
    for (const [name, value] of Object.entries(config.headers)) {
      if (typeof value !== 'string') fail(`headers.${name}`, value, 'a string', { secret: true });
    }
  }
}
