import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { ModelClientConfig } from './config.js';
import { loadSdk } from './peers.js';

/** The SDKs' own pre-header timeout when no timeout is configured (their default, 10 minutes). */
export const DEFAULT_SDK_TIMEOUT_MS = 600_000;

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
/** Anthropic's beta for a 1M-token context window (Claude Sonnet 4 and 4.5). */
export const LONG_CONTEXT_BETA = 'context-1m-2025-08-07';

/** Adds `beta` to the `anthropic-beta` header of `headers` (whatever its case), once. */
function withBeta(headers: Record<string, string | null>, beta: string): void {
  const name = Object.keys(headers).find((key) => key.toLowerCase() === 'anthropic-beta') ?? 'anthropic-beta';
  const betas = (headers[name] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (!betas.includes(beta)) betas.push(beta);
  headers[name] = betas.join(',');
}

/** The beta Anthropic's deferred tools and `tool_reference` blocks need (tool search). */
export const ADVANCED_TOOL_USE_BETA = 'advanced-tool-use-2025-11-20';

/**
 * The `anthropic-beta` header of a request that also needs `beta`: the configured betas (and the
 * long-context one) kept, since a request's header replaces the client's.
 */
export function anthropicBetaHeaderWith(config: ModelClientConfig, beta: string): Record<string, string> {
  const headers = headersFor(config);
  if (config.longContext === true) withBeta(headers, LONG_CONTEXT_BETA);
  withBeta(headers, beta);
  const name = Object.keys(headers).find((key) => key.toLowerCase() === 'anthropic-beta')!;
  return { [name]: headers[name] as string };
}

/**
 * Configured headers; without an API key the SDK's `Authorization` header is removed (a `null`
 * header value unsets it), unless the configuration brings its own.
 */
function headersFor(config: ModelClientConfig): Record<string, string | null> {
  const headers: Record<string, string | null> = { ...config.headers };
  const hasOwnAuth = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
  if (!config.apiKey && !hasOwnAuth) headers.Authorization = null;
  return headers;
}

type OpenAIClass = typeof OpenAI;
const keepingErrorBodies = new WeakMap<OpenAIClass, OpenAIClass>();

/**
 * The OpenAI SDK keeps only the `error` field of an error body; servers that answer in another
 * shape (Mistral's `{object: 'error', message, type, code}`) would lose their words, leaving
 * "422 status code (no body)". Such a body is kept whole. Made once per loaded SDK.
 */
function openAIKeepingErrorBodies(Base: OpenAIClass): OpenAIClass {
  let made = keepingErrorBodies.get(Base);
  if (made === undefined) {
    made = class extends Base {
      protected override makeStatusError(
        status: number,
        error: object,
        message: string | undefined,
        headers: Headers,
      ): ReturnType<OpenAI['makeStatusError']> {
        const whole = typeof error === 'object' && error !== null && !('error' in error) ? { error } : error;
        return super.makeStatusError(status, whole, message, headers);
      }
    };
    keepingErrorBodies.set(Base, made);
  }
  return made;
}

/**
 * Both SDKs are built the same way: no retries (the session owns retries and fallback), no
 * logging (a library does no I/O), nothing read from the environment (the config is the truth).
 */
export function createOpenAISdk(config: ModelClientConfig): OpenAI {
  const OpenAIClient = openAIKeepingErrorBodies(loadSdk('openai', config.provider).default);
  return new OpenAIClient({
    apiKey: config.apiKey ?? 'no-key',
    baseURL: config.baseURL ?? OPENAI_BASE_URL,
    organization: null,
    project: null,
    defaultHeaders: headersFor(config),
    maxRetries: 0,
    timeout: config.timeoutMs ?? DEFAULT_SDK_TIMEOUT_MS,
    logLevel: 'off',
    ...(config.fetch ? { fetch: config.fetch } : {}),
  });
}

export function createAnthropicSdk(config: ModelClientConfig): Anthropic {
  const headers = headersFor(config);
  if (config.longContext === true) withBeta(headers, LONG_CONTEXT_BETA);
  const AnthropicClient = loadSdk('@anthropic-ai/sdk', config.provider).default;
  return new AnthropicClient({
    apiKey: config.apiKey ?? 'no-key',
    authToken: null,
    baseURL: config.baseURL ?? ANTHROPIC_BASE_URL,
    defaultHeaders: headers,
    maxRetries: 0,
    timeout: config.timeoutMs ?? DEFAULT_SDK_TIMEOUT_MS,
    logLevel: 'off',
    ...(config.fetch ? { fetch: config.fetch } : {}),
  });
}
