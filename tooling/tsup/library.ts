// The one build every library package shares: ESM for Node 20, source maps, and type
// declarations for the public entry only (bins need none).
import { defineConfig } from 'tsup';

export function libraryBuild(bins: Record<string, string> = {}) {
  return defineConfig({
    entry: { index: 'src/index.ts', ...bins },
    format: ['esm'],
    dts: { entry: { index: 'src/index.ts' } },
    sourcemap: true,
    clean: true,
    target: 'node20',
  });
}
