import { cpSync } from 'node:fs';
import { defineConfig } from 'tsup';

// `agent demo` runs the files of examples/demo (their one home); the build copies them beside
// the bundle, so the published package carries them and an installed `agent demo` finds them.
// Paths are relative to the app's folder, where tsup runs.

export default defineConfig({
  entry: { agent: 'src/agent.ts', 'ai-agent': 'src/ai-agent.ts' },
  format: ['esm'],
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
  onSuccess: async () => cpSync('../../examples/demo', 'dist/demo', { recursive: true }),
});
