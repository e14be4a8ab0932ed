// Shared vitest settings for every package, app and the bench: resolve workspace packages to
// their TypeScript sources (no build needed to test), give each test file a home of its own,
// and (in library packages) fail tests that print.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const noConsole = fileURLToPath(new URL('./no-console.ts', import.meta.url));
const isolatedHome = fileURLToPath(new URL('./isolated-home.ts', import.meta.url));
// Every package's run also checks its own src/ for import cycles (docs/architecture.md).
const importCycles = fileURLToPath(new URL('./import-cycles.test.ts', import.meta.url));
const conditions = ['@agent/source', 'import', 'node', 'default'];

export function libraryTestConfig(options: { timeoutMs?: number; guardConsole?: boolean } = {}) {
  return defineConfig({
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: ['@agent/source'] } },
    test: {
      include: ['test/**/*.test.ts', importCycles],
      setupFiles: options.guardConsole === false ? [isolatedHome] : [isolatedHome, noConsole],
      testTimeout: options.timeoutMs ?? 20_000,
      pool: 'forks',
      // The JSON report feeds pnpm test's summary (tooling/test-setup/src/summary.mjs).
      reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    },
  });
}
