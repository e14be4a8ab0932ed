import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    // The bin keeps its `#!/usr/bin/env node` line from the source.
    'bin/agent-testkit-server': 'src/bin/agent-testkit-server.ts',
  },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
});
