import { libraryTestConfig } from '../../tooling/vitest/shared.js';

// The property tests run 10,000 cases each; on a loaded 2-core machine that takes minutes.
export default libraryTestConfig({ timeoutMs: 300_000 });
