import { mergeConfig } from 'vitest/config';
import { libraryTestConfig } from '../../tooling/vitest/shared.js';

// The type tests (`*.test-d.ts`: tool argument inference, result narrowing) run in vitest's
// typecheck mode beside the runtime tests.
export default mergeConfig(libraryTestConfig(), {
  test: { typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' } },
});
