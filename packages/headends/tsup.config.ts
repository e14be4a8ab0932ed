import { libraryBuild } from '../../tooling/tsup/library.js';

// `./http`: the HTTP faces without the A2A, MCP and Slack SDKs (agent-server loads those on demand).
export default libraryBuild({}, { http: 'src/http.ts' });
