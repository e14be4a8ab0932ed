import type { AgentCatalog } from '@agent/headends';
import type { ServerConfig } from './server-config.js';

export type { ViewerConfig } from './viewer-config.js';

import { configuredSessionsDir } from '@agent/runtime';
import { faceHostnames } from './allowed-hosts.js';
import { connectionLimits } from './server-limits.js';
import { EvalRunSource } from './viewer/eval-source.js';
import { observedCatalog } from './viewer/observed-catalog.js';
import { RecordSessionSource } from './viewer/record-source.js';
import { MemorySessionSource, ServerSessionSource } from './viewer/session-source.js';
import { loadViewerAssets } from './viewer/viewer-assets.js';
import { startViewerServer } from './viewer/viewer-server.js';

export const VIEWER_DEFAULTS = {
  maxSessions: 200,
  /** Eval runs listed on the eval page (the most recently written). */
  maxEvalRuns: 100,
  maxBytes: 32 * 1024 * 1024,
  maxNodes: 2000,
  foldChars: 4000,
};

export interface StartedViewer {
  /** The catalog whose runs the viewer shows: give it to every face. */
  observe(catalog: AgentCatalog): AgentCatalog;
  close(): Promise<void>;
}

/** The `persistence.sessionsDir` of each agent the server runs (agent.json's layers), once each. */
function sessionsDirs(config: ServerConfig): string[] {
  const dirs = config.agents.map((file) =>
    configuredSessionsDir(config.agentConfig === undefined ? {} : { configPath: config.agentConfig }, file),
  );
  return [...new Set(dirs.filter((dir): dir is string => dir !== undefined))];
}

/** Starts the viewer on its own port; prints its listening line like the faces do. */
export async function startViewer(
  config: ServerConfig,
  log: (line: string) => void,
): Promise<StartedViewer | undefined> {
  const viewer = config.viewer;
  if (viewer === undefined) return undefined;
  const maxSessions = viewer.maxSessions ?? VIEWER_DEFAULTS.maxSessions;
  const limits = { maxNodes: VIEWER_DEFAULTS.maxNodes, foldChars: VIEWER_DEFAULTS.foldChars };
  const memory = new MemorySessionSource({
    maxSessions,
    maxBytes: viewer.maxBytes ?? VIEWER_DEFAULTS.maxBytes,
  });
  const dirs = sessionsDirs(config);
  const records = dirs.length === 0 ? undefined : new RecordSessionSource({ dirs, maxSessions, limits });
  const server = await startViewerServer({
    source: new ServerSessionSource(memory, records),
    ...(viewer.evals === undefined
      ? {}
      : { evals: new EvalRunSource({ dir: viewer.evals, maxRuns: VIEWER_DEFAULTS.maxEvalRuns, limits }) }),
    assets: loadViewerAssets(),
    tokens: config.tokens,
    operatorTokens: config.operatorTokens,
    host: config.host,
    port: viewer.port,
    allowedHostnames: faceHostnames(config),
    ...connectionLimits(config),
    ...(viewer.maxStreams === undefined ? {} : { maxStreams: viewer.maxStreams }),
    ...(viewer.stalledStreamSeconds === undefined
      ? {}
      : { stalledStreamMs: viewer.stalledStreamSeconds * 1000 }),
  });
  log(`agent-server: viewer listening on ${server.url}/`);
  return {
    observe: (catalog) => observedCatalog(catalog, memory, limits),
    close: () => server.close(),
  };
}
