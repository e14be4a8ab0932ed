import { AnthropicClient } from './anthropic/client.js';
import type { ProviderModelClient } from './client-base.js';
import { type ModelClientConfig, validateConfig } from './config.js';
import { OpenAIChatClient } from './openai-chat/client.js';
import { OpenAIResponsesClient } from './openai-responses/client.js';

/**
 * Builds the `ModelClient` for one provider and model. Throws a `ConfigError` (`@agent/protocol`) for a
 * configuration that cannot work (the message names the field and what is allowed).
 *
 * - `openai`: OpenAI Chat Completions.
 * - `openai-responses`: the OpenAI Responses API (stateless, encrypted reasoning carried over).
 * - `anthropic`: Anthropic Messages (thinking, prompt-cache marks).
 * - `openai-compatible`: any Chat Completions server (Ollama, vLLM, llama.cpp, LM Studio,
 *   OpenRouter, DeepSeek, Groq, ...); `baseURL` required, `apiKey` optional.
 */
export function createModelClient(config: ModelClientConfig): ProviderModelClient {
  validateConfig(config);
  switch (config.type) {
    case 'openai':
    case 'openai-compatible':
      return new OpenAIChatClient(config);
    case 'openai-responses':
      return new OpenAIResponsesClient(config);
    case 'anthropic':
      return new AnthropicClient(config);
  }
}
