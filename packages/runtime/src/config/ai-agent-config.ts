import { basename } from 'node:path';
import { isRecord } from '@agent/protocol/util';
import { normaliseSettingForms } from '../agent-file/ai-agent-forms.js';
import { suggestion } from '../agent-file/suggest.js';
import type { Problem } from '../errors.js';
import {
  type Context,
  checkKeys,
  fail,
  type Json,
  type LineOf,
  toolGlobs,
  warn,
} from './ai-agent-context.js';
import { mcpServer } from './ai-agent-mcp-server.js';
import { translateSections } from './ai-agent-sections.js';

// ai-agent's `.ai-agent.json`, translated field by field into this runtime's `agent.json` shape
// before the usual checks (docs/migrating-from-ai-agent.md has the table). What cannot be
// honoured where ignoring it would change behaviour is a problem; what only changes cost or
// visibility, and sections not active here, are warnings (ai-agent-sections.ts).

/** Base URLs of the providers ai-agent has and this runtime reaches through their OpenAI-compatible API. */
export const AI_AGENT_BASE_URLS = {
  openrouter: 'https://openrouter.ai/api/v1',
  ollama: 'http://localhost:11434/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta/openai/',
} as const;

/** ai-agent's config files: `.ai-agent.json`, `/etc/ai-agent/ai-agent.json`, `.ai-agent.prod.json`. */
export function isAiAgentConfigFile(path: string): boolean {
  return /^\.?ai-agent(\.[^/]+)?\.json$/.test(basename(path));
}

const PROVIDER_KEYS = [
  'type',
  'apiKey',
  'baseUrl',
  'headers',
  'cacheStrategy',
  'contextWindow',
  'tokenizer',
  'models',
  'openaiMode',
  'toolsAllowed',
  'toolsDenied',
  'stringSchemaFormatsAllowed',
  'stringSchemaFormatsDenied',
];
const MODEL_KEYS = ['contextWindow', 'tokenizer', 'overrides', 'interleaved', 'contextWindowBufferTokens'];
const OVERRIDE_FIELDS: Record<string, string> = {
  temperature: 'temperature',
  top_p: 'top_p',
  top_k: 'top_k',
  repeat_penalty: 'repetition_penalty',
};
const PRICE_FIELDS: Record<string, string> = {
  prompt: 'input',
  completion: 'output',
  cacheRead: 'cachedInput',
  cacheWrite: 'cacheWrite',
};
const PRICE_UNITS: Record<string, number> = { per_1m: 1, per_1k: 1000 };

export interface Translation {
  /** The file in `agent.json`'s shape (checked against its schema next). */
  data: unknown;
  problems: Problem[];
  warnings: Problem[];
}

/** Translates a parsed `.ai-agent.json`. Keys this runtime already knows pass through as they are. */
export function translateAiAgentConfig(raw: unknown, file: string, lineOf: LineOf): Translation {
  const ctx: Context = { file, lineOf, problems: [], warnings: [] };
  if (!isRecord(raw)) return { data: raw, problems: [], warnings: [] };
  const out: Json = { ...raw };
  translateSections(out, ctx);
  if (isRecord(out.providers)) out.providers = mapEntries(out.providers, (name, p) => provider(name, p, ctx));
  if (isRecord(out.mcpServers))
    out.mcpServers = mapEntries(out.mcpServers, (name, s) => mcpServer(name, s, ctx));
  if (isRecord(out.queues)) out.queues = mapEntries(out.queues, (name, q) => queue(name, q, ctx));
  if (isRecord(out.defaults)) {
    const defaults = { ...out.defaults };
    normaliseSettingForms(defaults);
    if ('maxToolTurns' in defaults) {
      defaults.maxTurns ??= defaults.maxToolTurns;
      delete defaults.maxToolTurns;
    }
    out.defaults = defaults;
  }
  if ('pricing' in out) {
    applyPricing(out.pricing, out.providers, ctx);
    delete out.pricing;
  }
  return { data: out, problems: ctx.problems, warnings: ctx.warnings };
}

function mapEntries(entries: Json, map: (name: string, value: unknown) => unknown): Json {
  return Object.fromEntries(Object.entries(entries).map(([name, value]) => [name, map(name, value)]));
}

const OUR_PROVIDER_KEYS = [
  'baseURL',
  'timeoutMs',
  'extraBody',
  'promptCaching',
  'reasoningSummary',
  'chatReasoningField',
  'streamUsage',
  'toolCallIdFormat',
  'assistantAfterToolResults',
  'repeatPenaltyField',
  'allowTools',
  'denyTools',
];

function provider(name: string, value: unknown, ctx: Context): unknown {
  if (!isRecord(value)) return value;
  const path = ['providers', name];
  const out: Json = { ...value };
  checkKeys(out, PROVIDER_KEYS, OUR_PROVIDER_KEYS, path, ctx);
  if ('baseUrl' in out) {
    out.baseURL ??= out.baseUrl;
    delete out.baseUrl;
  }
  providerType(out, path, ctx);
  if ('openaiMode' in out) {
    openaiMode(out, [...path, 'openaiMode'], ctx);
    delete out.openaiMode;
  }
  if ('cacheStrategy' in out) {
    cacheStrategy(out, [...path, 'cacheStrategy'], ctx);
    delete out.cacheStrategy;
  }
  toolGlobs(out);
  if (isRecord(out.models))
    out.models = mapEntries(out.models, (model, m) => modelEntry(name, out.type, model, m, ctx));
  if ('tokenizer' in out) {
    providerTokenizer(out, [...path, 'tokenizer'], ctx);
    delete out.tokenizer;
  }
  return out;
}

/** ai-agent's provider types this runtime reaches through their OpenAI-compatible API; `test-llm` is refused. */
function providerType(out: Json, path: string[], ctx: Context): void {
  const type = out.type;
  if (type === 'openrouter' || type === 'ollama' || type === 'google') {
    out.type = 'openai-compatible';
    out.baseURL ??= AI_AGENT_BASE_URLS[type];
    if (type === 'ollama' && typeof out.baseURL === 'string' && !/\/v1\/?$/.test(out.baseURL))
      out.baseURL = `${out.baseURL.replace(/\/+$/, '')}/v1`;
  } else if (type === 'test-llm') {
    fail(
      ctx,
      [...path, 'type'],
      "provider type `test-llm` (ai-agent's scripted model) is not available; use an `openai-compatible` provider pointed at a test server",
    );
  }
}

/** `openaiMode: responses` makes an `openai` provider `openai-responses`; `chat` leaves it as it is. */
function openaiMode(out: Json, path: string[], ctx: Context): void {
  const mode = out.openaiMode;
  if (mode === 'responses' && out.type === 'openai') out.type = 'openai-responses';
  else if (mode !== 'chat' && mode !== 'responses')
    fail(ctx, path, `\`openaiMode\` must be chat or responses, got ${JSON.stringify(mode)}`);
}

/** `cacheStrategy: full` turns prompt caching on, `none` off (unless `promptCaching` says). */
function cacheStrategy(out: Json, path: string[], ctx: Context): void {
  const strategy = out.cacheStrategy;
  if (strategy === 'full' || strategy === 'none') out.promptCaching ??= strategy === 'full';
  else fail(ctx, path, `\`cacheStrategy\` must be full or none, got ${JSON.stringify(strategy)}`);
}

/** This runtime sets the tokenizer per model: the provider's goes to each model it lists. */
function providerTokenizer(out: Json, path: string[], ctx: Context): void {
  const models = isRecord(out.models) ? out.models : {};
  for (const entry of Object.values(models))
    if (isRecord(entry) && typeof out.tokenizer === 'string') entry.tokenizer ??= tokenizer(out.tokenizer);
  if (Object.keys(models).length === 0)
    warn(ctx, path, '`tokenizer` is ignored: list the models under `models` to give them one');
}

/** ai-agent's `tiktoken:<model>` ids count with OpenAI's encoding here. */
function tokenizer(id: string): string {
  return id.startsWith('tiktoken') ? 'openai' : id;
}

const OUR_MODEL_KEYS = [
  'pricing',
  'extraBody',
  'contextBuffer',
  'reasoningModel',
  'omitSampling',
  'reasoningEfforts',
  'outputTokenLimit',
  'maxTokensField',
  'longContext',
  'chatReasoningField',
];

function modelEntry(
  providerName: string,
  providerType: unknown,
  model: string,
  value: unknown,
  ctx: Context,
): unknown {
  if (!isRecord(value)) return value;
  const path = ['providers', providerName, 'models', model];
  const out: Json = { ...value };
  checkKeys(out, MODEL_KEYS, OUR_MODEL_KEYS, path, ctx);
  if (typeof out.tokenizer === 'string') out.tokenizer = tokenizer(out.tokenizer);
  if ('contextWindowBufferTokens' in out) {
    out.contextBuffer ??= out.contextWindowBufferTokens;
    delete out.contextWindowBufferTokens;
  }
  if ('overrides' in out) {
    overrides(out, [...path, 'overrides'], ctx);
    delete out.overrides;
  }
  if ('interleaved' in out) {
    interleaved(out, providerType, [...path, 'interleaved'], ctx);
    delete out.interleaved;
  }
  return out;
}

/** A model's `overrides` (forced sampling values, `null` to omit one) as `extraBody` fields. */
function overrides(out: Json, path: string[], ctx: Context): void {
  const value = out.overrides;
  if (!isRecord(value)) {
    fail(ctx, path, '`overrides` must be an object of parameter names to a number or null');
    return;
  }
  // Forced values and `null` (omit) go into the body last: `extraBody` wins over the request's own.
  const body: Json = isRecord(out.extraBody) ? { ...out.extraBody } : {};
  for (const [key, forced] of Object.entries(value)) {
    const field = OVERRIDE_FIELDS[key];
    if (field === undefined || (forced !== null && typeof forced !== 'number')) {
      fail(
        ctx,
        [...path, key],
        field === undefined
          ? `unknown override \`${key}\`${suggestion(key, Object.keys(OVERRIDE_FIELDS), 'allowed')}`
          : `override \`${key}\` must be a number or null (not sent)`,
      );
      continue;
    }
    body[field] = forced;
  }
  out.extraBody = body;
}

/** Chat Completions fields this runtime can send reasoning back in. */
const REASONING_FIELDS = ['reasoning_content', 'reasoning'];

/**
 * A model's `interleaved`: `true` replays its reasoning in `reasoning_content`, a field name in
 * that field, `false` not at all (as without it). Only Chat Completions providers take it.
 */
function interleaved(out: Json, providerType: unknown, path: string[], ctx: Context): void {
  const value = out.interleaved;
  if (value === false) return;
  if (value !== true && typeof value !== 'string') {
    fail(ctx, path, `\`interleaved\` must be true, false or a field name, got ${JSON.stringify(value)}`);
    return;
  }
  if (providerType !== 'openai' && providerType !== 'openai-compatible') {
    warn(
      ctx,
      path,
      `\`interleaved\` is ignored for a \`${String(providerType)}\` provider: its reasoning is replayed by its own API's rules (docs/providers.md)`,
    );
    return;
  }
  const field = value === true ? 'reasoning_content' : value;
  if (!REASONING_FIELDS.includes(field)) {
    warn(
      ctx,
      path,
      `\`interleaved: ${field}\` is ignored: reasoning can be replayed in ${REASONING_FIELDS.join(' or ')} only`,
    );
    return;
  }
  out.chatReasoningField ??= field;
}

function queue(name: string, value: unknown, ctx: Context): unknown {
  if (!isRecord(value)) return value;
  const extra = Object.keys(value).filter((key) => key !== 'concurrent');
  for (const key of extra)
    fail(
      ctx,
      ['queues', name, key],
      `unknown key \`${key}\` in \`queues.${name}\`; allowed keys: concurrent`,
    );
  return value.concurrent;
}

/** Top-level `pricing.<provider>.<model>` becomes the model entry's `pricing`, in USD per million tokens. */
function applyPricing(pricing: unknown, providers: unknown, ctx: Context): void {
  if (!isRecord(pricing)) {
    fail(ctx, ['pricing'], '`pricing` must be an object of provider names to models to prices');
    return;
  }
  for (const [providerName, models] of Object.entries(pricing)) {
    const entry = isRecord(providers) ? providers[providerName] : undefined;
    if (!isRecord(entry)) {
      warn(
        ctx,
        ['pricing', providerName],
        `pricing for \`${providerName}\` is ignored: no provider of that name in this file`,
      );
      continue;
    }
    if (!isRecord(models)) continue;
    const table: Json = isRecord(entry.models) ? { ...entry.models } : {};
    for (const [model, price] of Object.entries(models)) {
      const converted = convertPrice(price, ['pricing', providerName, model], ctx);
      if (converted === undefined) continue;
      table[model] = { ...(isRecord(table[model]) ? table[model] : {}), pricing: converted };
    }
    entry.models = table;
  }
}

function convertPrice(price: unknown, path: string[], ctx: Context): Json | undefined {
  if (!isRecord(price)) {
    fail(ctx, path, 'a price must be an object { unit, prompt, completion, cacheRead?, cacheWrite? }');
    return undefined;
  }
  const unit = price.unit ?? 'per_1m';
  const scale = typeof unit === 'string' ? PRICE_UNITS[unit] : undefined;
  if (scale === undefined) {
    fail(ctx, [...path, 'unit'], `\`unit\` must be per_1m or per_1k, got ${JSON.stringify(unit)}`);
    return undefined;
  }
  const out: Json = { input: 0, output: 0 };
  for (const [key, value] of Object.entries(price)) {
    if (key === 'unit' || key === 'currency') continue;
    const field = PRICE_FIELDS[key];
    if (field === undefined || typeof value !== 'number' || value < 0) {
      fail(
        ctx,
        [...path, key],
        field === undefined
          ? `unknown price \`${key}\`${suggestion(key, Object.keys(PRICE_FIELDS), 'allowed')}`
          : `\`${key}\` must be a number >= 0`,
      );
      continue;
    }
    out[field] = value * scale;
  }
  return out;
}
