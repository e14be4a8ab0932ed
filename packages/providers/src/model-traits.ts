import type { ReasoningEffort } from '@agent/protocol';
import type { ModelClientConfig, ProviderType, RepeatPenaltyField, SamplingParam } from './config.js';

// What the runtime knows about models and servers that changes how a request must look. One
// place, read once per client; every entry can be overridden from the client config.

/** How tool-call ids must look on the wire (see `tool-call-ids.ts`). */
export type ToolIdFormat = 'openai' | 'anthropic' | 'mistral' | 'any';

/** Everything the request builders need to know about one target. */
export interface RequestRules {
  /** An OpenAI reasoning model (o-series, gpt-5 family): no sampling parameters, encrypted reasoning. */
  reasoningModel: boolean;
  /** Sampling parameters never sent; `undefined`: decided per call (reasoning models take them only at effort `none`). */
  omitSampling?: ReadonlySet<SamplingParam>;
  /** Reasoning efforts the model accepts (others map to the nearest); `undefined`: sent as asked. */
  efforts?: readonly ReasoningEffort[];
  /** Anthropic: the most output tokens (`max_tokens`) the model accepts. */
  outputTokenLimit?: number;
  /** Chat Completions: send `stream_options.include_usage` on streamed calls. */
  streamUsage: boolean;
  /** Chat Completions: the field `maxOutputTokens` goes in. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  toolIdFormat: ToolIdFormat;
  /** Chat Completions: an assistant message between tool results and a following user message. */
  assistantAfterToolResults: boolean;
  /** Chat Completions: send earlier reasoning back under this field (thinking models that require it). */
  chatReasoningField?: 'reasoning_content' | 'reasoning';
  /** Anthropic: the 1M-token context beta. */
  longContext: boolean;
  /** The API takes `top_k` (Anthropic; OpenAI-compatible servers as an extra body field). */
  topK: boolean;
  /** The body field of the repeat penalty; absent when the API has none. */
  repeatPenaltyField?: RepeatPenaltyField;
}

/** The model name without a router's vendor prefix (`openai/gpt-5` -> `gpt-5`), lower-cased. */
export function baseModelName(model: string): string {
  return (model.split('/').pop() ?? model).toLowerCase();
}

/** OpenAI reasoning models: o1, o3, o4-mini, ..., and the gpt-5 family except its `-chat` models. */
const OPENAI_REASONING = /^(o\d(?:[-.]|$)|gpt-5(?:\.\d+)?(?:-(?!chat)[\w.-]*)?$|codex-mini)/;

/**
 * Efforts each OpenAI family accepts, first match wins (from OpenAI's model pages, 2025-12):
 * gpt-5.1 rejects `minimal` and adds `none`; `xhigh` arrived with gpt-5.1-codex-max and 5.2.
 */
const EFFORT_FAMILIES: readonly { pattern: RegExp; efforts: readonly ReasoningEffort[] }[] = [
  { pattern: /^gpt-5-pro/, efforts: ['high'] },
  { pattern: /^gpt-5\.1-codex-max/, efforts: ['low', 'medium', 'high', 'xhigh'] },
  { pattern: /^gpt-5\.1/, efforts: ['none', 'low', 'medium', 'high'] },
  { pattern: /^gpt-5\.\d/, efforts: ['none', 'low', 'medium', 'high', 'xhigh'] },
  { pattern: /^gpt-5/, efforts: ['minimal', 'low', 'medium', 'high'] },
  { pattern: /^(o\d|codex-mini|gpt-oss)/, efforts: ['low', 'medium', 'high'] },
];

/** Anthropic output limits (max_tokens), longest prefix first (Anthropic's models overview, 2025-11). */
const ANTHROPIC_OUTPUT_LIMITS: readonly [prefix: string, tokens: number][] = [
  ['claude-opus-4-5', 64_000],
  ['claude-opus-4-1', 32_000],
  ['claude-opus-4', 32_000],
  ['claude-sonnet-4-5', 64_000],
  ['claude-sonnet-4', 64_000],
  ['claude-haiku-4-5', 64_000],
  ['claude-3-7-sonnet', 64_000],
  ['claude-3-5-sonnet', 8_192],
  ['claude-3-5-haiku', 8_192],
  ['claude-3-haiku', 4_096],
];

/** Mistral models, wherever they are served: 9-character tool-call ids, no user right after a tool. */
const MISTRAL_MODELS = /^(mistral|magistral|devstral|codestral|ministral|pixtral|open-mi[sx]tral|mixtral)/;
/** Thinking models whose servers want the reasoning of tool-call turns back (DeepSeek, Moonshot). */
const REASONING_CONTENT_MODELS = /^(deepseek-reasoner|kimi-k2-thinking)/;

function hostOf(baseURL: string | undefined): string {
  if (baseURL === undefined) return '';
  try {
    return new URL(baseURL).hostname.toLowerCase();
  } catch {
    return '';
  }
}

export function isOpenAIReasoningModel(model: string): boolean {
  return OPENAI_REASONING.test(baseModelName(model));
}

export function effortFamily(model: string): readonly ReasoningEffort[] | undefined {
  const name = baseModelName(model);
  return EFFORT_FAMILIES.find((family) => family.pattern.test(name))?.efforts;
}

export function anthropicOutputLimit(model: string): number | undefined {
  const name = baseModelName(model);
  return ANTHROPIC_OUTPUT_LIMITS.find(([prefix]) => name.startsWith(prefix))?.[1];
}

function defaultMaxTokensField(type: ProviderType, reasoning: boolean): RequestRules['maxTokensField'] {
  return type === 'openai' || reasoning ? 'max_completion_tokens' : 'max_tokens';
}

/** The rules for one client: the tables above, with every configured value winning. */
export function resolveRequestRules(config: ModelClientConfig): RequestRules {
  const name = baseModelName(config.model);
  const mistralHost = hostOf(config.baseURL) === 'api.mistral.ai';
  const mistral = mistralHost || MISTRAL_MODELS.test(name);
  const openAIFamily = config.type !== 'anthropic';
  const reasoningModel = config.reasoningModel ?? (openAIFamily && isOpenAIReasoningModel(name));
  const efforts = config.reasoningEfforts ?? (openAIFamily ? effortFamily(name) : undefined);
  const outputTokenLimit =
    config.outputTokenLimit ?? (config.type === 'anthropic' ? anthropicOutputLimit(name) : undefined);
  const defaultIds: ToolIdFormat =
    config.type === 'anthropic' ? 'anthropic' : config.type === 'openai-responses' ? 'any' : 'openai';
  const reasoningField =
    config.chatReasoningField ?? (REASONING_CONTENT_MODELS.test(name) ? 'reasoning_content' : undefined);
  // OpenAI's own APIs refuse unknown fields, and so does Mistral's (422 extra_forbidden).
  const compatible = config.type === 'openai-compatible';
  const penaltyField = compatible
    ? (config.repeatPenaltyField ?? (mistralHost ? undefined : 'repetition_penalty'))
    : undefined;
  return {
    reasoningModel,
    ...(config.omitSampling === undefined ? {} : { omitSampling: new Set(config.omitSampling) }),
    ...(efforts === undefined ? {} : { efforts }),
    ...(outputTokenLimit === undefined ? {} : { outputTokenLimit }),
    streamUsage: config.streamUsage ?? !mistralHost,
    maxTokensField: config.maxTokensField ?? defaultMaxTokensField(config.type, reasoningModel),
    toolIdFormat: config.toolCallIdFormat ?? (mistral && openAIFamily ? 'mistral' : defaultIds),
    assistantAfterToolResults: config.assistantAfterToolResults ?? (mistral && openAIFamily),
    ...(reasoningField === undefined ? {} : { chatReasoningField: reasoningField }),
    longContext: config.longContext ?? false,
    topK: config.type === 'anthropic' || (compatible && !mistralHost),
    ...(penaltyField === undefined ? {} : { repeatPenaltyField: penaltyField }),
  };
}
