export { AnthropicClient } from './anthropic/client.js';
export type { ProviderModelClient } from './client-base.js';
export type {
  ModelClientConfig,
  ModelPricing,
  ProviderType,
  RepeatPenaltyField,
  SamplingParam,
} from './config.js';
export {
  PROVIDER_TYPES,
  REPEAT_PENALTY_FIELDS,
  SAMPLING_PARAMS,
  TOOL_ID_FORMATS,
  validateConfig,
} from './config.js';
export { createModelClient } from './create-model-client.js';
export type { ErrorFacts } from './errors.js';
export { classifyError } from './errors.js';
export { MODEL_SHORTHANDS, type ModelShorthandOptions, model, parseModelId } from './model-shorthand.js';
export type { RequestRules, ToolIdFormat } from './model-traits.js';
export { resolveRequestRules } from './model-traits.js';
export { OpenAIChatClient } from './openai-chat/client.js';
export { OpenAIResponsesClient } from './openai-responses/client.js';
export { DEFAULT_PRICING, DEFAULT_PRICING_DATE, lookupPricing } from './pricing.js';
export { redactSecrets } from './redact.js';
export { retryAfterMsFromHeaders } from './retry-after.js';
export { ToolCallAssembler } from './tool-call-assembler.js';
export { computeCostUsd } from './usage-cost.js';
