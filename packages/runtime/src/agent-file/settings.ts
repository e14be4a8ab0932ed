import type { ReasoningOptions } from '@agent/protocol';

/** Settings of the tool-output module as they can be written in a file. */
export interface ToolOutputSettings {
  enabled?: boolean;
  storeDir?: string;
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
  temperature?: number;
  topP?: number;
  topK?: number;
  repeatPenalty?: number;
  maxOutputTokens?: number;
  reasoning?: ReasoningOptions;
  contextWindow?: number;
  toolResponseMaxBytes?: number;
  toolOutput?: ToolOutputSettings;
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
  'contextWindow',
  'toolResponseMaxBytes',
  'toolOutput',
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
  for (const layer of [...layers].reverse()) {
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
