import type { ModelTarget } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { createModelClient, type ModelClientConfig, validateConfig } from '@agent/providers';
import type { ModelRef } from '../agent-file/definition.js';
import type { ClientFactory } from '../api.js';
import { type ResolvedConfig, unusableValueError } from '../config/layers.js';
import type { ConfigEntry } from '../config/merge.js';
import type { ProviderEntry, ProviderModelEntry } from '../config/schema.js';
import { UnusableValue } from '../config/substitute.js';
import { RuntimeError } from '../errors.js';
import { formatKeeper, withStringFormatFilter } from './string-formats.js';

function entryError(entry: ConfigEntry<ProviderEntry>, message: string, cause?: unknown): RuntimeError {
  const { file, line } = entry.origin;
  return new RuntimeError({
    kind: 'configuration',
    file,
    ...(line === undefined ? {} : { line }),
    message: `${file}${line === undefined ? '' : `:${line}`}: provider \`${entry.name}\`: ${message}`,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** A model entry's overrides of the providers' model table. */
function modelTableOverrides(model: ProviderModelEntry): Partial<ModelClientConfig> {
  const out: Partial<ModelClientConfig> = {};
  if (model.reasoningModel !== undefined) out.reasoningModel = model.reasoningModel;
  if (model.omitSampling !== undefined) out.omitSampling = model.omitSampling;
  if (model.reasoningEfforts !== undefined) out.reasoningEfforts = model.reasoningEfforts;
  if (model.outputTokenLimit !== undefined) out.outputTokenLimit = model.outputTokenLimit;
  if (model.maxTokensField !== undefined) out.maxTokensField = model.maxTokensField;
  if (model.longContext !== undefined) out.longContext = model.longContext;
  return out;
}

/**
 * The `createModelClient` configuration of one model reference: the provider's entry with the
 * model's own settings (`contextWindow`, `pricing`, `extraBody`) on top. A model the provider
 * does not list is allowed and gets the defaults. Throws `RuntimeError` (missing variable,
 * invalid settings); the message never contains the key. With `keyOptional` (a `clientFactory`
 * builds the client: a replay needs no key), an `apiKey` whose variable is not set is left out.
 */
export function modelClientConfig(
  ref: ModelRef,
  config: ResolvedConfig,
  options: { keyOptional?: boolean } = {},
): ModelClientConfig {
  const entry = config.providers.get(ref.provider);
  if (entry === undefined) {
    throw new RuntimeError({
      kind: 'configuration',
      message: `unknown provider \`${ref.provider}\` in \`${ref.spec}\``,
    });
  }
  const provider =
    options.keyOptional === true && (entry.value.apiKey as unknown) instanceof UnusableValue
      ? withoutApiKey(entry.value)
      : entry.value;
  const missing = unusableValueError(provider);
  if (missing !== undefined) throw missing;
  const model = provider.models?.[ref.model] ?? {};
  const contextWindow = model.contextWindow ?? provider.contextWindow;
  const extraBody =
    provider.extraBody === undefined && model.extraBody === undefined
      ? undefined
      : { ...provider.extraBody, ...model.extraBody };
  const clientConfig: ModelClientConfig = {
    type: provider.type,
    provider: ref.provider,
    model: ref.model,
    ...(provider.apiKey === undefined ? {} : { apiKey: provider.apiKey }),
    ...(provider.baseURL === undefined ? {} : { baseURL: provider.baseURL }),
    ...(provider.headers === undefined ? {} : { headers: provider.headers }),
    ...(provider.timeoutMs === undefined ? {} : { timeoutMs: provider.timeoutMs }),
    ...(model.pricing === undefined ? {} : { pricing: model.pricing }),
    ...(contextWindow === undefined ? {} : { contextWindow }),
    ...(model.tokenizer === undefined ? {} : { tokenizer: model.tokenizer }),
    ...(extraBody === undefined ? {} : { extraBody }),
    ...(provider.promptCaching === undefined ? {} : { promptCaching: provider.promptCaching }),
    ...(provider.reasoningSummary === undefined ? {} : { reasoningSummary: provider.reasoningSummary }),
    ...((model.chatReasoningField ?? provider.chatReasoningField) === undefined
      ? {}
      : { chatReasoningField: model.chatReasoningField ?? provider.chatReasoningField }),
    ...(provider.streamUsage === undefined ? {} : { streamUsage: provider.streamUsage }),
    ...(provider.toolCallIdFormat === undefined ? {} : { toolCallIdFormat: provider.toolCallIdFormat }),
    ...(provider.assistantAfterToolResults === undefined
      ? {}
      : { assistantAfterToolResults: provider.assistantAfterToolResults }),
    ...(provider.repeatPenaltyField === undefined ? {} : { repeatPenaltyField: provider.repeatPenaltyField }),
    ...modelTableOverrides(model),
  };
  try {
    validateConfig(clientConfig);
  } catch (error) {
    throw entryError(entry, config.redact(errorMessage(error).replace(/^createModelClient: /, '')), error);
  }
  return clientConfig;
}

function withoutApiKey(provider: ProviderEntry): ProviderEntry {
  const { apiKey: _unset, ...rest } = provider;
  return rest;
}

export interface TargetOptions {
  promptCaching?: boolean;
}

/** The target options of an agent's `caching` setting (absent: the provider's own). */
export function cachingTargetOptions(caching: 'full' | 'none' | undefined): TargetOptions {
  return caching === undefined ? {} : { promptCaching: caching === 'full' };
}

/** Builds and caches one `ModelTarget` per `provider/model` for the lifetime of a runner. */
export class TargetBuilder {
  private readonly cache = new Map<string, ModelTarget>();

  constructor(
    private readonly config: ResolvedConfig,
    private readonly factory?: ClientFactory,
  ) {}

  /** `promptCaching` (an agent's `caching`) beats the provider's own setting. */
  target(ref: ModelRef, options: TargetOptions = {}): ModelTarget {
    const { promptCaching } = options;
    const key = `${ref.provider}/${ref.model}${promptCaching === undefined ? '' : `#caching=${promptCaching}`}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const base = modelClientConfig(ref, this.config, { keyOptional: this.factory !== undefined });
    const clientConfig = promptCaching === undefined ? base : { ...base, promptCaching };
    const client =
      this.factory === undefined
        ? createModelClient(clientConfig)
        : this.factory({ provider: ref.provider, model: ref.model, config: clientConfig });
    const provider = this.config.providers.get(ref.provider)?.value;
    const model = provider?.models?.[ref.model] ?? {};
    const keep = formatKeeper({
      ...(provider?.stringSchemaFormatsAllowed === undefined
        ? {}
        : { allowed: provider.stringSchemaFormatsAllowed }),
      ...(provider?.stringSchemaFormatsDenied === undefined
        ? {}
        : { denied: provider.stringSchemaFormatsDenied }),
    });
    const target: ModelTarget = {
      client: keep === undefined ? client : withStringFormatFilter(client, keep),
      ...(clientConfig.contextWindow === undefined ? {} : { contextWindow: clientConfig.contextWindow }),
      ...(model.contextBuffer === undefined ? {} : { contextBuffer: model.contextBuffer }),
    };
    this.cache.set(key, target);
    return target;
  }

  targets(refs: readonly ModelRef[], options: TargetOptions = {}): ModelTarget[] {
    return refs.map((ref) => this.target(ref, options));
  }
}
