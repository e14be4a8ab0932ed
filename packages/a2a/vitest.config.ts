import { libraryTestConfig } from '../../tooling/vitest/shared.js';

export default libraryTestConfig();
