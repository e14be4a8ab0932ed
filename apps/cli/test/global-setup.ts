// Builds what the end-to-end tests spawn: the CLI bin and the workspace packages it loads.
import { fileURLToPath } from 'node:url';
import { ensureAppBin } from '../../../tooling/vitest/app-bin-setup.js';

export default function setup(): void {
  ensureAppBin({
    appDir: fileURLToPath(new URL('..', import.meta.url)),
    bin: 'dist/agent.js',
    packageName: '@agent/cli',
    runtimePackages: [
      'protocol',
      'schema',
      'cache',
      'xml-transport',
      'final-report',
      'tool-output',
      'core',
      'guardrails',
      'providers',
      'mcp',
      'runtime',
      'testkit',
      'evals',
    ],
  });
}
