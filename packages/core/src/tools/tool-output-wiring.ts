import {
  AgentError,
  type ConfigError,
  type RunChildSession,
  type ToolOutputHookFactory,
} from '@agent/protocol';
import type { ToolOutputOptions } from '@agent/tool-output';

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
  /**
   * The session set `toolResponseMaxBytes` itself: without `toolOutput` it still gets the store,
   * with the module's defaults (seed 002: the cap stores oversized outputs behind a handle).
   */
  capGiven: boolean;
  /** The session compacts: its transcripts are stored there, so it gets the store too (docs/compaction.md). */
  compaction: boolean;
}

type ToolOutputModule = typeof import('@agent/tool-output');
let toolOutputModule: Promise<ToolOutputModule> | undefined;

/**
 * `@agent/tool-output`, imported by the first session that builds its hook and kept: an `import()`
 * per session costs a module-loader round trip (about 0.2 ms per served session in the
 * headend-load profile). A failed import is tried again by the next session.
 */
function loadToolOutput(): Promise<ToolOutputModule> {
  toolOutputModule ??= import('@agent/tool-output').catch((error: unknown) => {
    toolOutputModule = undefined;
    throw error;
  });
  return toolOutputModule;
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
 * Without `toolOutput`, a session that set `toolResponseMaxBytes` gets the hook of the default
 * settings (store in `os.tmpdir()`), and so does one that compacts; one that set neither gets
 * none and does no file I/O.
 * No factory with `enabled: false`; settings that cannot work (also with `enabled: false`)
 * come back as `problems`. `@agent/tool-output` (file I/O, Node's `fs`) is imported only when
 * a session builds its hook, so loading `@agent/core` loads none of it.
 */
export async function toolOutputFactory(
  config: ToolOutputConfig | undefined,
  wiring: ToolOutputWiring,
): Promise<BuiltToolOutput> {
  const settings = config ?? (wiring.capGiven || wiring.compaction ? {} : undefined);
  if (settings === undefined) return { problems: [] };
  if (typeof settings === 'function') return { factory: settings, problems: [] };
  const { createToolOutputHook } = await loadToolOutput();
  try {
    const factory = createToolOutputHook({
      truncateBytes: Math.max(1024, wiring.toolResponseMaxBytes - 1024),
      ...settings,
      runChildSession: wiring.runChildSession,
      agentPath: wiring.agentPath,
    });
    return settings.enabled === false ? { problems: [] } : { factory, problems: [] };
  } catch (error) {
    if (AgentError.is(error, 'configuration')) return { problems: [...(error as ConfigError).problems] };
    throw error;
  }
}
