import type { ModelRequest, ReasoningEffort } from '@agent/protocol';
import type { RepeatPenaltyField, SamplingParam } from './config.js';
import type { RequestRules } from './model-traits.js';
import { effortOf, nearestEffort } from './reasoning-budget.js';

/** A request body being built, and what the client changed to make it valid (logged at VRB). */
export interface BuiltBody<Body> {
  body: Body;
  notices: string[];
}

/**
 * Merges `extraBody` over a body, last: it wins over anything the client set, and a `null`
 * value removes the client's field (for servers that refuse one).
 */
export function applyExtraBody<Body extends object>(
  body: Body,
  extra: Record<string, unknown> | undefined,
): Body {
  if (extra === undefined) return body;
  const target = body as Record<string, unknown>;
  for (const [key, value] of Object.entries(extra)) {
    if (value === null) delete target[key];
    else target[key] = value;
  }
  return body;
}

/** The effort to send to an OpenAI-style API: the asked one, mapped to one the model accepts. */
export function openAIEffort(
  request: ModelRequest,
  rules: RequestRules,
  notices: string[],
): ReasoningEffort | undefined {
  const asked = effortOf(request.reasoning);
  if (asked === undefined) return undefined;
  const sent = nearestEffort(asked, rules.efforts);
  if (sent !== asked) {
    notices.push(`reasoning effort ${asked} sent as ${sent}: the model accepts ${rules.efforts?.join(', ')}`);
  }
  return sent;
}

const PARAM_NAMES: Record<SamplingParam, string> = {
  temperature: 'temperature',
  topP: 'top_p',
  topK: 'top_k',
  repeatPenalty: 'repeat penalty',
};

/**
 * The sampling parameters this call may send. OpenAI reasoning models reject any temperature or
 * top_p but the default, except at effort `none` on the models that accept `none` (gpt-5.1+);
 * `omitSampling` in the config overrides that.
 */
export function allowedSampling(
  request: ModelRequest,
  rules: RequestRules,
  effort: ReasoningEffort | undefined,
  notices: string[],
): { temperature?: number; topP?: number } {
  const omitted =
    rules.omitSampling ??
    (rules.reasoningModel && !(effort === 'none' && rules.efforts?.includes('none'))
      ? new Set<SamplingParam>(['temperature', 'topP'])
      : new Set<SamplingParam>());
  const out: { temperature?: number; topP?: number } = {};
  const dropped: string[] = [];
  for (const param of ['temperature', 'topP'] as const) {
    const value = request[param];
    if (value === undefined) continue;
    if (omitted.has(param)) dropped.push(PARAM_NAMES[param]);
    else out[param] = value;
  }
  if (dropped.length > 0) {
    const why = rules.omitSampling
      ? 'omitSampling in the config'
      : 'a reasoning model accepts only the default';
    notices.push(`${dropped.join(' and ')} not sent (${why})`);
  }
  return out;
}

/** `top_k` and the repeat penalty this call may send, and the field the penalty goes in. */
export interface SamplingExtras {
  topK?: number;
  repeatPenalty?: { field: RepeatPenaltyField; value: number };
}

/**
 * Top-k and the repeat penalty (seed 002): sent where the API takes them (`rules.topK`,
 * `rules.repeatPenaltyField`) and `omitSampling` does not list them; anything left out is
 * said in a notice (logged at VRB), so a setting is never dropped in silence.
 */
export function samplingExtras(
  request: ModelRequest,
  rules: RequestRules,
  notices: string[],
): SamplingExtras {
  const out: SamplingExtras = {};
  const omitted: string[] = [];
  const unsupported: string[] = [];
  if (request.topK !== undefined) {
    if (rules.omitSampling?.has('topK')) omitted.push(PARAM_NAMES.topK);
    else if (!rules.topK) unsupported.push(PARAM_NAMES.topK);
    else out.topK = request.topK;
  }
  if (request.repeatPenalty !== undefined) {
    if (rules.omitSampling?.has('repeatPenalty')) omitted.push(PARAM_NAMES.repeatPenalty);
    else if (rules.repeatPenaltyField === undefined) unsupported.push(PARAM_NAMES.repeatPenalty);
    else out.repeatPenalty = { field: rules.repeatPenaltyField, value: request.repeatPenalty };
  }
  if (omitted.length > 0) notices.push(`${omitted.join(' and ')} not sent (omitSampling in the config)`);
  if (unsupported.length > 0) {
    notices.push(`${unsupported.join(' and ')} not sent (this provider type has no such parameter)`);
  }
  return out;
}
