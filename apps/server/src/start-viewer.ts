import type { AgentCatalog } from '@agent/headends';
import type { ServerConfig } from './server-config.js';

export type { ViewerConfig } from './viewer-config.js';

import { observedCatalog } from './viewer/observed-catalog.js';
import { MemorySessionSource } from './viewer/session-source.js';
import { loadViewerAssets } from './viewer/viewer-assets.js';
import { startViewerServer } from './viewer/viewer-server.js';

export const VIEWER_DEFAULTS = {
  maxSessions: 200,
  maxBytes: 32 * 1024 * 1024,
  maxNodes: 2000,
  foldChars: 4000,
};

export interface StartedViewer {
  /** The catalog whose runs the viewer shows: give it to every face. */
  observe(catalog: AgentCatalog): AgentCatalog;
  close(): Promise<void>;
}

/** Starts the viewer on its own port; prints its listening line like the faces do. */
export async function startViewer(
  config: ServerConfig,
  log: (line: string) => void,
): Promise<StartedViewer | undefined> {
  const viewer = config.viewer;
  if (viewer === undefined) return undefined;
  const source = new MemorySessionSource({
    maxSessions: viewer.maxSessions ?? VIEWER_DEFAULTS.maxSessions,
    maxBytes: viewer.maxBytes ?? VIEWER_DEFAULTS.maxBytes,
  });
  const server = await startViewerServer({
    source,
    assets: loadViewerAssets(),
    tokens: config.tokens,
    host: config.host,
    port: viewer.port,
    ...(config.maxConnections === undefined ? {} : { maxConnections: config.maxConnections }),
  });
  log(`agent-server: viewer listening on ${server.url}/`);
  return {
    observe: (catalog) =>
      observedCatalog(catalog, source, {
        maxNodes: VIEWER_DEFAULTS.maxNodes,
        foldChars: VIEWER_DEFAULTS.foldChars,
      }),
    close: () => server.close(),
  };
}
