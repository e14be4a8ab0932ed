import { mergeConfig } from 'vitest/config';
import { libraryTestConfig } from '../vitest/shared.js';

// The registry test's installs run two at a time (the machine's two cores compile better-sqlite3).
export default mergeConfig(libraryTestConfig({ timeoutMs: 60_000 }), {
  test: { maxConcurrency: 2 },
});
