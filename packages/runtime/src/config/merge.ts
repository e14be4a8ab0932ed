import { isRecord } from '@agent/protocol/util';
import type { Problem } from '../errors.js';
import type { SourceLocator } from '../files/source-locator.js';
import type { OpenApiSpecEntry, RestToolEntry } from './http-api-schema.js';
import type {
  A2aAgentEntry,
  CacheSection,
  ConfigDefaults,
  ConfigFile,
  McpServerEntry,
  PersistenceSection,
  ProviderEntry,
  SessionsSection,
  TelemetrySection,
} from './schema.js';

/** Where a config entry was written. */
export interface Origin {
  /** Absolute path of the config file. */
  path: string;
  /** Shown path. */
  file: string;
  line?: number;
}

/** A provider or MCP server as the winning layer defined it (it may hold `UnusableValue`s). */
export interface ConfigEntry<T> {
  name: string;
  value: T;
  origin: Origin;
}

/** One config file, parsed, checked and substituted. */
export interface LoadedLayer {
  path: string;
  file: string;
  data: ConfigFile;
  locator: SourceLocator;
  /** What reading it found that does not stop it being used (sections of ai-agent not active here). */
  warnings?: Problem[];
}

export interface MergedConfig {
  /** `allowedPaths` of every layer, absolute (each relative to its own file). */
  allowedPaths: string[];
  providers: Map<string, ConfigEntry<ProviderEntry>>;
  mcpServers: Map<string, ConfigEntry<McpServerEntry>>;
  restTools: Map<string, ConfigEntry<RestToolEntry>>;
  openapiSpecs: Map<string, ConfigEntry<OpenApiSpecEntry>>;
  a2aAgents: Map<string, ConfigEntry<A2aAgentEntry>>;
  queues: Record<string, number>;
  defaults: ConfigDefaults;
  /** Where each default came from (for messages about `defaults.models`). */
  defaultsOrigin: Partial<Record<keyof ConfigDefaults, Origin>>;
  /** The cache store: the highest layer that sets `cache` sets all of it. */
  cache?: ConfigEntry<CacheSection>;
  /** The warnings of every layer. */
  warnings: Problem[];
  /** The session store: like `cache`, the highest layer that sets it sets all of it. */
  sessions?: ConfigEntry<SessionsSection>;
  /** Session records and the billing ledger: like `cache`, from the highest layer that sets it. */
  persistence?: ConfigEntry<PersistenceSection>;
  /** OpenTelemetry export: like `cache`, the highest layer that sets it sets all of it. */
  telemetry?: ConfigEntry<TelemetrySection>;
}

/**
 * Where an entry was defined. Its line is looked up when first read (a message about the
 * entry): a run whose configuration is fine never parses `agent.json` a second time for lines.
 */
function origin(layer: LoadedLayer, path: (string | number)[]): Origin {
  let line: { value: number | undefined } | undefined;
  return {
    path: layer.path,
    file: layer.file,
    get line() {
      line ??= { value: layer.locator.lineOf(path) };
      return line.value;
    },
  };
}

function mergeNamed<T>(
  target: Map<string, ConfigEntry<T>>,
  layer: LoadedLayer,
  section: 'providers' | 'mcpServers' | 'restTools' | 'openapiSpecs' | 'a2aAgents',
): void {
  const entries = (layer.data[section] ?? {}) as Record<string, T | null>;
  for (const [name, value] of Object.entries(entries)) {
    if (value === null) target.delete(name);
    else target.set(name, { name, value, origin: origin(layer, [section, name]) });
  }
}

/**
 * Merges layers given highest first:
 * - `providers`, `mcpServers`, `restTools`, `openapiSpecs`, `a2aAgents`: by name; the highest layer that defines a name defines the
 *   whole entry (no field-by-field mixing); `null` removes the entries of lower layers.
 * - `queues`: by name, the highest layer wins; `null` removes.
 * - `defaults`: key by key, the highest layer wins; `reasoning` and `toolOutput` are merged
 *   key by key too; lists (`models`) are replaced, never concatenated.
 * - `allowedPaths`: the places of every layer count.
 * - `cache`, `sessions`, `persistence`, `telemetry`: the highest layer that has one defines it whole.
 */
export function mergeLayers(layers: readonly LoadedLayer[]): MergedConfig {
  const merged: MergedConfig = {
    allowedPaths: layers.flatMap((layer) => layer.data.allowedPaths ?? []),
    providers: new Map(),
    mcpServers: new Map(),
    restTools: new Map(),
    openapiSpecs: new Map(),
    a2aAgents: new Map(),
    queues: {},
    defaults: {},
    defaultsOrigin: {},
    warnings: layers.flatMap((layer) => layer.warnings ?? []),
  };
  const defaults = merged.defaults as Record<string, unknown>;
  for (const layer of [...layers].reverse()) {
    mergeNamed(merged.providers, layer, 'providers');
    mergeNamed(merged.mcpServers, layer, 'mcpServers');
    mergeNamed(merged.restTools, layer, 'restTools');
    mergeNamed(merged.openapiSpecs, layer, 'openapiSpecs');
    mergeNamed(merged.a2aAgents, layer, 'a2aAgents');
    for (const [name, limit] of Object.entries(layer.data.queues ?? {})) {
      if (limit === null) delete merged.queues[name];
      else merged.queues[name] = limit;
    }
    if (layer.data.cache !== undefined) {
      merged.cache = { name: 'cache', value: layer.data.cache, origin: origin(layer, ['cache']) };
    }
    if (layer.data.sessions !== undefined) {
      merged.sessions = { name: 'sessions', value: layer.data.sessions, origin: origin(layer, ['sessions']) };
    }
    if (layer.data.persistence !== undefined) {
      merged.persistence = {
        name: 'persistence',
        value: layer.data.persistence,
        origin: origin(layer, ['persistence']),
      };
    }
    if (layer.data.telemetry !== undefined) {
      merged.telemetry = {
        name: 'telemetry',
        value: layer.data.telemetry,
        origin: origin(layer, ['telemetry']),
      };
    }
    for (const [key, value] of Object.entries(layer.data.defaults ?? {})) {
      if (value === undefined) continue;
      const current = defaults[key];
      defaults[key] = isRecord(value) && isRecord(current) ? { ...current, ...value } : value;
      merged.defaultsOrigin[key as keyof ConfigDefaults] = origin(layer, ['defaults', key]);
    }
  }
  return merged;
}
