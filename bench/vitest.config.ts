import { libraryTestConfig } from '../tooling/vitest/shared.js';

// The comparison programs (`comparison/`), each run against the testkit server.
export default libraryTestConfig({ timeoutMs: 60_000 });
