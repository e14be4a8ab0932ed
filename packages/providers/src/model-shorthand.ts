import { ConfigError } from '@agent/protocol';
import type { ProviderModelClient } from './client-base.js';
import type { ModelClientConfig, ProviderType } from './config.js';
import { createModelClient } from './create-model-client.js';

/** How a `provider/` prefix of `model()` becomes a client: its wire type, and where key and URL come from. */
interface ShorthandProvider {
  type: ProviderType;
  /** Variable holding the API key; absent: no key is needed. */
  keyVariable?: string;
  /** Variable that overrides the API root. */
  baseUrlVariable: string;
  /** API root when the variable is not set (the SDK's own default when absent). */
  baseURL?: string;
}

/** The prefixes `model()` knows, and the environment variables each reads. */
export const MODEL_SHORTHANDS: Readonly<Record<string, ShorthandProvider>> = {
  openai: { type: 'openai', keyVariable: 'OPENAI_API_KEY', baseUrlVariable: 'OPENAI_BASE_URL' },
  'openai-responses': {
    type: 'openai-responses',
    keyVariable: 'OPENAI_API_KEY',
    baseUrlVariable: 'OPENAI_BASE_URL',
  },
  anthropic: { type: 'anthropic', keyVariable: 'ANTHROPIC_API_KEY', baseUrlVariable: 'ANTHROPIC_BASE_URL' },
  openrouter: {
    type: 'openai-compatible',
    keyVariable: 'OPENROUTER_API_KEY',
    baseUrlVariable: 'OPENROUTER_BASE_URL',
    baseURL: 'https://openrouter.ai/api/v1',
  },
  ollama: {
    type: 'openai-compatible',
    baseUrlVariable: 'OLLAMA_BASE_URL',
    baseURL: 'http://localhost:11434/v1',
  },
};

/** Settings of `model()` besides the name: any client setting, and the environment to read. */
export type ModelShorthandOptions = Partial<Omit<ModelClientConfig, 'type' | 'provider' | 'model'>> & {
  /** Where the key and the base URL are read (default `process.env`). */
  env?: Record<string, string | undefined>;
};

/** Splits `provider/model` at the first slash (`openrouter/anthropic/claude-sonnet-4.5` keeps the rest). */
export function parseModelId(id: string): { provider: string; model: string } | undefined {
  if (typeof id !== 'string') return undefined;
  const slash = id.indexOf('/');
  if (slash <= 0 || slash === id.length - 1) return undefined;
  return { provider: id.slice(0, slash), model: id.slice(slash + 1) };
}

/** Known prefixes, for messages. */
const KNOWN = () => Object.keys(MODEL_SHORTHANDS).join(', ');

function fail(id: unknown, field: string, allowed: string, message: string): never {
  throw new ConfigError({ source: `model(${JSON.stringify(id)})`, field, allowed, message });
}

/**
 * A model client from a `provider/model` name, with the key and the API root from the usual
 * environment variables: `model('openai/gpt-4.1-mini')` reads `OPENAI_API_KEY` and
 * `OPENAI_BASE_URL`, `model('anthropic/claude-sonnet-4-5')` reads `ANTHROPIC_API_KEY` and
 * `ANTHROPIC_BASE_URL` (see `MODEL_SHORTHANDS` for the rest). `options` override anything read.
 * Throws a `ConfigError` for an unknown prefix or a missing key, naming the variable.
 */
export function model(id: string, options: ModelShorthandOptions = {}): ProviderModelClient {
  const parsed = parseModelId(id);
  if (parsed === undefined)
    fail(id, 'id', '"provider/model"', 'give "provider/model", e.g. "openai/gpt-4.1-mini"');
  const known = Object.hasOwn(MODEL_SHORTHANDS, parsed.provider)
    ? MODEL_SHORTHANDS[parsed.provider]
    : undefined;
  if (known === undefined) {
    fail(
      id,
      'provider',
      `one of ${KNOWN()}`,
      `unknown provider "${parsed.provider}"; known: ${KNOWN()} (for any other server use createModelClient with type "openai-compatible" and its baseURL)`,
    );
  }
  const { env = process.env, ...settings } = options;
  const fromEnv = (name: string | undefined) => {
    const value = name === undefined ? undefined : env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const apiKey = settings.apiKey ?? fromEnv(known.keyVariable);
  const ownBaseURL = settings.baseURL ?? fromEnv(known.baseUrlVariable);
  const baseURL = ownBaseURL ?? known.baseURL;
  // A server of your own (a base URL given) may need no key; the provider's own API does.
  if (known.keyVariable !== undefined && apiKey === undefined && ownBaseURL === undefined) {
    fail(
      id,
      'apiKey',
      `set in ${known.keyVariable}, or given`,
      `${known.keyVariable} is not set: set it in the environment, or pass { apiKey }`,
    );
  }
  return createModelClient({
    ...settings,
    type: known.type,
    provider: parsed.provider,
    model: parsed.model,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(baseURL === undefined ? {} : { baseURL }),
  });
}
