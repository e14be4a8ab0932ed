import { ConfigError } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';

/** Which wire protocol a client speaks. */
export type ProviderType = 'openai' | 'openai-responses' | 'anthropic' | 'openai-compatible';

export const PROVIDER_TYPES: readonly ProviderType[] = [
  'openai',
  'openai-responses',
  'anthropic',
  'openai-compatible',
];

/** Prices in USD per million tokens. */
export interface ModelPricing {
  /** Uncached input tokens. */
  input: number;
  output: number;
  /** Input tokens read from the prompt cache; defaults to `input`. */
  cachedInput?: number;
  /** Input tokens written to the prompt cache (Anthropic); defaults to `input`. */
  cacheWrite?: number;
}

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
  /** Fields merged into every request body (e.g. OpenRouter `provider` routing, Ollama `options`). */
  extraBody?: Record<string, unknown>;
  /** Anthropic: put `cache_control` marks on the stable prefix (default true). */
  promptCaching?: boolean;
  /** OpenAI Responses: reasoning summary to ask for when reasoning is on (default `auto`; `none` asks for none). */
  reasoningSummary?: 'auto' | 'concise' | 'detailed' | 'none';
  /**
   * Chat Completions: send earlier reasoning back on assistant messages under this field.
   * DeepSeek and Moonshot thinking models want `reasoning_content` during tool loops; off by default.
   */
  chatReasoningField?: 'reasoning_content' | 'reasoning';
  /** A `fetch` implementation for the SDK (proxies, custom agents). */
  fetch?: typeof fetch;
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

function checkPricing(pricing: ModelPricing | undefined): void {
  if (pricing === undefined) return;
  if (!isRecord(pricing)) fail('pricing', pricing, 'an object of prices');
  for (const field of ['input', 'output', 'cachedInput', 'cacheWrite'] as const) {
    const value: unknown = pricing[field];
    const required = field === 'input' || field === 'output';
    if (value === undefined && !required) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      fail(`pricing.${field}`, value, 'a number >= 0 (USD per million tokens)');
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
  if (config.headers !== undefined) {
    for (const [name, value] of Object.entries(config.headers)) {
      if (typeof value !== 'string') fail(`headers.${name}`, value, 'a string', { secret: true });
    }
  }
}
