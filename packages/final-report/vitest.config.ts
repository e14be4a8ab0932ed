import { libraryTestConfig } from '../../tooling/vitest/shared.js';

// Property tests over thousands of generated payloads need room on a loaded machine.
export default libraryTestConfig({ timeoutMs: 120_000 });
