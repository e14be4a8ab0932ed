import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'bin/agent-fs-mcp': 'src/bin/agent-fs-mcp.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
