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

/** The config's request options, only those it sets. */
export function samplingOptions(config: SamplingOptions): SamplingOptions {
  const out: SamplingOptions = {};
  for (const key of SAMPLING_KEYS) {
    if (config[key] !== undefined) Object.assign(out, { [key]: config[key] });
  }
  return out;
}
