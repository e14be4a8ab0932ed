import type { ModelRequest } from '@agent/protocol';

/** The request options a session sets once for every call. */
export type SamplingOptions = Pick<
  ModelRequest,
  'temperature' | 'topP' | 'topK' | 'repeatPenalty' | 'maxOutputTokens' | 'reasoning' | 'stream'
>;

const SAMPLING_KEYS = [
  'temperature',
  'topP',
  'topK',
  'repeatPenalty',
  'maxOutputTokens',
  'reasoning',
  'stream',
] as const satisfies readonly (keyof SamplingOptions)[];

/** A config that sets none: one shared, read-only empty set (not an object kept per session). */
const NO_SAMPLING: SamplingOptions = Object.freeze({});

/** The config's request options, only those it sets. */
export function samplingOptions(config: SamplingOptions): SamplingOptions {
  let out: SamplingOptions | undefined;
  for (const key of SAMPLING_KEYS) {
    if (config[key] === undefined) continue;
    out ??= {};
    Object.assign(out, { [key]: config[key] });
  }
  return out ?? NO_SAMPLING;
}
