import { resolve } from 'node:path';
import type { ResolveOptions } from '../api.js';
import { resolveConfig } from './layers.js';
import type { TelemetrySection } from './schema.js';

/**
 * The `telemetry` section of the config in effect (the highest layer that has one), for an app
 * that sets up OpenTelemetry export before it runs agents; `undefined` when no layer has one.
 * Its `otlp.headers` are secrets: never print them. Throws the config's error like a run would.
 */
export function telemetrySettings(
  options: ResolveOptions & { agentFile?: string } = {},
): TelemetrySection | undefined {
  const cwd = resolve(options.cwd ?? process.cwd());
  const agentDir = options.agentFile === undefined ? undefined : resolve(cwd, options.agentFile, '..');
  return resolveConfig({ ...options, cwd }, agentDir).telemetry?.value;
}
