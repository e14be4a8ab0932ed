import { libraryBuild } from '../../tooling/tsup/library.js';

export default libraryBuild({}, { standalone: 'src/standalone-runtime.ts' });
