import type { ModelRequest, ReasoningEffort } from '@agent/protocol';
import type { RequestRules, SamplingParam } from './model-traits.js';
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

const PARAM_NAMES: Record<SamplingParam, string> = { temperature: 'temperature', topP: 'top_p' };

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
