import type { CompactionSettings, ReasoningOptions, ToolSearchSettings } from '@agent/protocol';

/** Settings of the tool-output module as they can be written in a file. */
export interface ToolOutputSettings {
  enabled?: boolean;
  storeDir?: string;
  /** `provider/model` references for the extraction calls (default: the agent's own models). */
  models?: string[];
  maxChunks?: number;
  overlapPercent?: number;
  avgLineBytesThreshold?: number;
  truncateBytes?: number;
  readGrepMaxTurns?: number;
  mapConcurrency?: number;
  extractionOutputTokens?: number;
}

/** Session settings an agent file (or the config's `defaults`) may set. */
export interface AgentSettings {
  maxTurns?: number;
  maxRetries?: number;
  maxToolCallsPerTurn?: number;
  llmTimeout?: number;
  toolTimeout?: number;
  // `null`: do not send the parameter (and do not take a lower layer's value).
  temperature?: number | null;
  topP?: number | null;
  topK?: number | null;
  repeatPenalty?: number | null;
  maxOutputTokens?: number | null;
  reasoning?: ReasoningOptions;
  /** Anthropic prompt caching for this agent's calls (default `full`). */
  caching?: 'full' | 'none';
  contextWindow?: number;
  /** Tokens kept free below every model's context window (default the model's `contextBuffer`, else 256). */
  contextWindowBufferTokens?: number;
  toolResponseMaxBytes?: number;
  toolOutput?: ToolOutputSettings;
  /** Long sessions: older turns replaced by a summary when the context fills (docs/compaction.md). */
  compaction?: boolean | CompactionSettings;
  /** Large toolsets: past `after` tools the model searches for the ones it needs (docs/tool-search.md). */
  toolSearch?: ToolSearchSettings;
  /** Tool calls a person decides before they run: globs over the tool names the model sees (docs/sessions.md). */
  approval?: { tools?: string[] };
}

export const SETTING_NAMES = [
  'maxTurns',
  'maxRetries',
  'maxToolCallsPerTurn',
  'llmTimeout',
  'toolTimeout',
  'temperature',
  'topP',
  'topK',
  'repeatPenalty',
  'maxOutputTokens',
  'reasoning',
  'caching',
  'contextWindow',
  'contextWindowBufferTokens',
  'toolResponseMaxBytes',
  'toolOutput',
  'compaction',
  'toolSearch',
  'approval',
] as const satisfies readonly (keyof AgentSettings)[];

/** Picks the settings out of validated data. */
export function pickSettings(data: object): AgentSettings {
  const source = data as Record<string, unknown>;
  const settings: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) if (source[name] !== undefined) settings[name] = source[name];
  return settings as AgentSettings;
}

/**
 * Layers settings, highest first: each key comes from the first layer that sets it; the
 * objects (`reasoning`, `toolOutput`) are merged key by key the same way.
 */
export function layerSettings(...layers: (AgentSettings | undefined)[]): AgentSettings {
  const out: Record<string, unknown> = {};
  for (let at = layers.length - 1; at >= 0; at--) {
    const layer = layers[at];
    if (layer === undefined) continue;
    for (const [key, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      const current = out[key];
      out[key] =
        typeof value === 'object' && value !== null && typeof current === 'object' && current !== null
          ? { ...current, ...value }
          : value;
    }
  }
  return out as AgentSettings;
}
