import { libraryBuild } from '../../tooling/tsup/library.js';

// The worker thread's script is an entry of its own: `compileSchemaOffThread` starts dist/schema-worker.js.
export default libraryBuild(
  { 'schema-worker': 'src/off-thread/schema-worker.ts' },
  { standalone: 'src/standalone-runtime.ts' },
);
