import { mergeConfig } from 'vitest/config';
import { libraryTestConfig } from '../../tooling/vitest/shared.js';

// The CLI owns the terminal: its tests spawn the built bin, so printing is not a library defect here.
// The global setup builds the bin (and missing workspace dists) before any end-to-end test runs.
export default mergeConfig(libraryTestConfig({ guardConsole: false, timeoutMs: 60_000 }), {
  test: { globalSetup: ['test/global-setup.ts'] },
});
