import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { 'agent-server': 'src/agent-server.ts' },
  format: ['esm'],
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
