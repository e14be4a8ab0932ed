import {
  AgentError,
  type ConfigError,
  type RunChildSession,
  type ToolOutputHookFactory,
} from '@agent/protocol';
import { createToolOutputHook, type ToolOutputOptions } from '@agent/tool-output';

/** The plain-object form of `toolOutput`: the settings of `@agent/tool-output`. */
export type ToolOutputSettings = Pick<
  ToolOutputOptions,
  | 'enabled'
  | 'storeDir'
  | 'maxChunks'
  | 'overlapPercent'
  | 'avgLineBytesThreshold'
  | 'models'
  | 'createReadGrepTools'
  | 'truncateBytes'
  | 'readGrepMaxTurns'
  | 'mapConcurrency'
  | 'extractionOutputTokens'
>;

/** `toolOutput` of a session config: a hook factory, or settings the session builds the hook from. */
export type ToolOutputConfig = ToolOutputHookFactory | ToolOutputSettings;

/** What the session lends the hook it builds. */
export interface ToolOutputWiring {
  /** The core's `runAgent`, passed in (not imported) so this file adds no import cycle. */
  runChildSession: RunChildSession;
  agentPath: string;
  toolResponseMaxBytes: number;
}

/** The hook factory a session uses, or every problem with the settings that ask for one. */
export interface BuiltToolOutput {
  factory?: ToolOutputHookFactory;
  problems: ConfigError[];
}

/**
 * The hook factory a session uses: a factory is taken as is; settings build the
 * `@agent/tool-output` hook with the session's `runAgent` (for the read-grep child), its agent
 * path, and a truncate budget that keeps a truncated view under `toolResponseMaxBytes`.
 * No factory when `toolOutput` is absent or `enabled: false`; settings that cannot work (also
 * with `enabled: false`) come back as `problems`.
 */
export function toolOutputFactory(
  config: ToolOutputConfig | undefined,
  wiring: ToolOutputWiring,
): BuiltToolOutput {
  if (config === undefined) return { problems: [] };
  if (typeof config === 'function') return { factory: config, problems: [] };
  try {
    const factory = createToolOutputHook({
      truncateBytes: Math.max(1024, wiring.toolResponseMaxBytes - 1024),
      ...config,
      runChildSession: wiring.runChildSession,
      agentPath: wiring.agentPath,
    });
    return config.enabled === false ? { problems: [] } : { factory, problems: [] };
  } catch (error) {
    if (AgentError.is(error, 'configuration')) return { problems: [...(error as ConfigError).problems] };
    throw error;
  }
}
