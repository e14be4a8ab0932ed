import type { ModelTarget } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';
import type { ResolvedConfig } from '../config/layers.js';
import { mergeLayers } from '../config/merge.js';
import { layerFromObject } from '../config/read-layer.js';
import { createRedactor } from '../config/redact.js';
import { RuntimeError } from '../errors.js';
import { TargetBuilder } from '../models/build-targets.js';

/** How messages about seed 002's in-memory `Configuration` name it. */
export const CONFIG_LABEL = 'config';

/** One provider of seed 002's `Configuration`: ai-agent's `.ai-agent.json` entry (`baseUrl`, ...) or this runtime's (`baseURL`, ...). */
export interface SeedProvider {
  type: string;
  apiKey?: string | undefined;
  baseUrl?: string;
  baseURL?: string;
  [setting: string]: unknown;
}

/**
 * Seed 002's `Configuration`: providers and MCP servers (and the other sections of
 * `.ai-agent.json` / `agent.json`), as an object. Read like a config file, its values as given.
 */
export interface Configuration {
  providers?: Record<string, SeedProvider>;
  mcpServers?: Record<string, Record<string, unknown>>;
  defaults?: Record<string, unknown>;
  [section: string]: unknown;
}

/** A provider and one of its models, as seed 002's `targets` lists them. */
export interface SeedTarget {
  provider: string;
  model: string;
}

/** The configuration in effect for one seed session: this object alone (no file is read). Throws `RuntimeError`. */
export function resolveSeedConfiguration(value: unknown, cwd: string): ResolvedConfig {
  if (!isRecord(value))
    throw new RuntimeError({
      kind: 'configuration',
      message: `${CONFIG_LABEL}: must be an object with \`providers\` and \`mcpServers\` (seed 002's Configuration)`,
    });
  const { layer, secrets } = layerFromObject(value, CONFIG_LABEL, cwd);
  return {
    ...mergeLayers([layer]),
    layers: [],
    cwd,
    env: process.env,
    secrets,
    redact: createRedactor(secrets),
  };
}

/** Seed 002's `targets` (`{ provider, model }` pairs) as model targets; an unknown provider names the defined ones. */
export function seedTargets(targets: unknown, config: ResolvedConfig): ModelTarget[] {
  const defined = [...config.providers.keys()];
  if (!Array.isArray(targets) || targets.length === 0)
    throw new RuntimeError({
      kind: 'configuration',
      message: `targets: must be a non-empty list of { provider, model } pairs (providers of config: ${list(defined)})`,
    });
  const builder = new TargetBuilder(config);
  return targets.map((target, index) => {
    if (!isRecord(target) || typeof target.provider !== 'string' || typeof target.model !== 'string')
      throw new RuntimeError({
        kind: 'configuration',
        message: `targets[${index}]: must be { provider: string, model: string }`,
      });
    if (!config.providers.has(target.provider))
      throw new RuntimeError({
        kind: 'configuration',
        message: `targets[${index}]: unknown provider \`${target.provider}\`; config.providers defines ${list(defined)}`,
      });
    const spec = `${target.provider}/${target.model}`;
    return builder.target({ spec, provider: target.provider, model: target.model });
  });
}

/**
 * Seed 002's `tools`: a name is an MCP server of `config.mcpServers` to expose; anything else (a
 * tool or tool provider, as `@agent/core` takes them) is passed on as it is.
 */
export function seedTools(tools: unknown, config: ResolvedConfig): { servers: string[]; others: unknown[] } {
  if (tools === undefined) return { servers: [], others: [] };
  const defined = [...config.mcpServers.keys()];
  if (!Array.isArray(tools))
    throw new RuntimeError({
      kind: 'configuration',
      message: `tools: must be a list of MCP server names (config.mcpServers defines ${list(defined)})`,
    });
  const servers: string[] = [];
  const others: unknown[] = [];
  for (const tool of tools) {
    if (typeof tool !== 'string') others.push(tool);
    else if (!config.mcpServers.has(tool))
      throw new RuntimeError({
        kind: 'configuration',
        message: `tools: unknown MCP server \`${tool}\`; config.mcpServers defines ${list(defined)}`,
      });
    else if (!servers.includes(tool)) servers.push(tool);
  }
  return { servers, others };
}

function list(names: readonly string[]): string {
  return names.length === 0 ? 'none' : names.map((name) => `\`${name}\``).join(', ');
}
