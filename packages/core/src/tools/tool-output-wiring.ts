import {
  createToolOutputHook,
  type RunChildSession,
  type ToolOutputOptions,
  toolOutputOptionProblems,
} from '@agent/tool-output';
import type { ToolOutputHookFactory } from './tool-output-hook.js';

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

/** Problems with the settings form, for the session's configuration check. */
export function toolOutputProblems(config: ToolOutputConfig | undefined): string[] {
  if (config === undefined || typeof config === 'function') return [];
  return toolOutputOptionProblems(config);
}

/**
 * The hook factory a session uses: a factory is taken as is; settings build the
 * `@agent/tool-output` hook with the session's `runAgent` (for the read-grep child), its agent
 * path, and a truncate budget that keeps a truncated view under `toolResponseMaxBytes`.
 * Undefined (no hook) when `toolOutput` is absent or `enabled: false`.
 */
export function toolOutputFactory(
  config: ToolOutputConfig | undefined,
  wiring: ToolOutputWiring,
): ToolOutputHookFactory | undefined {
  if (config === undefined) return undefined;
  if (typeof config === 'function') return config;
  if (config.enabled === false) return undefined;
  return createToolOutputHook({
    truncateBytes: Math.max(1024, wiring.toolResponseMaxBytes - 1024),
    ...config,
    runChildSession: wiring.runChildSession,
    agentPath: wiring.agentPath,
  });
}
