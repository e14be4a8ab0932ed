import { libraryTestConfig } from '../vitest/shared.js';

// These tests run the preflight, vitest and turbo as child processes: room for a loaded machine.
export default libraryTestConfig({ timeoutMs: 60_000 });
