// The one build every library package shares: ESM for Node 20, source maps, and type
// declarations for the public entries only (bins need none). `entries` are public sub-paths
// (`{ util: 'src/util/index.ts' }` builds `dist/util.js` and `dist/util.d.ts`).
import { defineConfig } from 'tsup';

export function libraryBuild(bins: Record<string, string> = {}, entries: Record<string, string> = {}) {
  const publicEntries = { index: 'src/index.ts', ...entries };
  return defineConfig({
    entry: { ...publicEntries, ...bins },
    format: ['esm'],
    dts: { entry: publicEntries },
    sourcemap: true,
    clean: true,
    target: 'node20',
  });
}
