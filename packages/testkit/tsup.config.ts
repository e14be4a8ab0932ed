import { libraryBuild } from '../../tooling/tsup/library.js';

// The bin keeps its `#!/usr/bin/env node` line from the source.
export default libraryBuild({ 'bin/agent-testkit-server': 'src/bin/agent-testkit-server.ts' });
