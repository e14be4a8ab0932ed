import { libraryBuild } from '../../tooling/tsup/library.js';

export default libraryBuild(
  { 'bin/agent-fs-mcp': 'src/bin/agent-fs-mcp.ts' },
  { 'fs-server': 'src/fs-server.ts' },
);
