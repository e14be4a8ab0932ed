import { ConfigError } from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';
import type { AgentSessionConfig } from './config.js';

/**
 * Seed 002's `AIAgentSessionConfig` keys and this project's name for each, so the seed's own
 * example runs as written. `config` (the seed's `Configuration`: providers and MCP servers) has
 * no project key: the core takes model clients and tool providers; `@agent/runtime`'s `AIAgent`
 * reads it (and `targets` as `{ provider, model }` pairs), then hands the core the rest.
 */
const SEED_NAMES = {
  targets: 'models',
  systemPrompt: 'instructions',
  userPrompt: 'prompt',
  conversationHistory: 'history',
  expectedOutput: 'output',
  llmTimeout: 'llmTimeoutMs',
  toolTimeout: 'toolTimeoutMs',
} as const satisfies Record<string, keyof AgentSessionConfig>;

const SEED_ENTRIES = Object.entries(SEED_NAMES) as [keyof typeof SEED_NAMES, keyof AgentSessionConfig][];

export interface SeedConfig {
  /** The config in this project's names. */
  config: AgentSessionConfig;
  /** One line per seed name that was used, for a `VRB` log line. */
  mapped: string[];
  /** A seed name and its project name (or `model`) both given with different values. */
  problems: ConfigError[];
}

/** Maps seed 002's key names onto this project's; the caller's object is not changed. */
export function fromSeedNames(input: AgentSessionConfig): SeedConfig {
  if (!isRecord(input)) return { config: input, mapped: [], problems: [] };
  const raw = input as unknown as Record<string, unknown>;
  if (!SEED_ENTRIES.some(([seed]) => seed in raw) && !('callbacks' in raw) && !('config' in raw))
    return { config: input, mapped: [], problems: [] };
  const out: Record<string, unknown> = { ...raw };
  const mapped: string[] = [];
  const problems: ConfigError[] = [];
  const take = (seed: string, project: string, value: unknown) => {
    delete out[seed];
    if (value === undefined) return;
    if (raw[project] !== undefined && raw[project] !== value) {
      problems.push(conflict(seed, project, value));
      return;
    }
    out[project] = value;
    mapped.push(`${seed} → ${project}`);
  };
  for (const [seed, project] of SEED_ENTRIES) {
    if (!(seed in raw)) continue;
    if (seed === 'targets' && raw.model !== undefined && raw.targets !== undefined) {
      delete out.targets;
      problems.push(conflict('targets', 'model', raw.targets));
      continue;
    }
    take(seed, project, raw[seed]);
  }
  if ('callbacks' in raw) {
    const callbacks = raw.callbacks;
    take('callbacks', 'onEvent', isRecord(callbacks) ? callbacks.onEvent : callbacks);
  }
  if ('config' in raw) {
    delete out.config;
    mapped.push(
      "config (providers and MCP servers) is not read by @agent/core: it takes model clients in targets/models and tool providers in tools; @agent/runtime's AIAgent reads config, targets as { provider, model } pairs and tools as MCP server names",
    );
  }
  return { config: out as unknown as AgentSessionConfig, mapped, problems };
}

function conflict(seed: string, project: string, value: unknown): ConfigError {
  return new ConfigError({
    field: seed,
    value,
    allowed: `absent, or the same value as ${project}`,
    message: `${seed} (seed 002's name) and ${project} are both given with different values: give one`,
  });
}
