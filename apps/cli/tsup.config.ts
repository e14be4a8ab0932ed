import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { agent: 'src/agent.ts', 'ai-agent': 'src/ai-agent.ts' },
  format: ['esm'],
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
