import { libraryBuild } from '../../tooling/tsup/library.js';

// `@agent/telemetry/export` is an entry of its own: the main entry never loads the SDK.
export default libraryBuild({}, { export: 'src/export/index.ts' });
