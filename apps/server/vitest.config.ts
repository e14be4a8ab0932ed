import { mergeConfig } from 'vitest/config';
import { libraryTestConfig } from '../../tooling/vitest/shared.js';

// The server is an app: its tests spawn the built bin, which prints by design.
// The global setup builds the bin (and missing workspace dists) before the tests run.
export default mergeConfig(libraryTestConfig({ guardConsole: false, timeoutMs: 120_000 }), {
  test: { globalSetup: ['test/global-setup.ts'] },
});
