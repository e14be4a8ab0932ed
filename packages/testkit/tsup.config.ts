import { libraryBuild } from '../../tooling/tsup/library.js';

// The bin keeps its `#!/usr/bin/env node` line from the source. `@agent/testkit/a2a` is an entry
// of its own: the main entry never loads express or the A2A SDK.
export default libraryBuild(
  { 'bin/agent-testkit-server': 'src/bin/agent-testkit-server.ts' },
  { a2a: 'src/a2a/index.ts' },
);
