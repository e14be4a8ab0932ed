import { libraryBuild } from '../../tooling/tsup/library.js';

// The worker thread's script is an entry of its own: `compileSchemaOffThread` runs dist/schema-worker.js.
// `worker-pool` is the one worker pool of the project (the server's viewer reads records with it).
export default libraryBuild(
  { 'schema-worker': 'src/off-thread/schema-worker.ts' },
  { standalone: 'src/standalone-runtime.ts', 'worker-pool': 'src/off-thread/worker-pool.ts' },
);
