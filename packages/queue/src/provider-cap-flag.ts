import { ConfigError } from '@agent/protocol';
import { isPositiveInteger } from '@agent/protocol/util';

/** Parses `provider=N` (the `--provider-cap` flag) into `[provider, N]`; throws `ConfigError` otherwise. */
export function parseProviderCap(text: string): [string, number] {
  const match = /^([A-Za-z0-9_.-]+)=(\d+)$/.exec(text.trim());
  const cap = match === null ? Number.NaN : Number(match[2]);
  if (match === null || !isPositiveInteger(cap)) {
    throw new ConfigError({
      field: '--provider-cap',
      value: text,
      allowed: 'provider=N with N a positive whole number (e.g. openai=8)',
      message: `--provider-cap: expected provider=N (e.g. openai=8), not ${JSON.stringify(text)}`,
    });
  }
  return [match[1] as string, cap];
}
