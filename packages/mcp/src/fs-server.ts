// `@agent/mcp/fs-server`: the root-confined filesystem MCP server (also the `agent-fs-mcp` bin),
// and the same tools in process as a `ToolProvider`.
export type { McpToolProvider } from './client/mcp-tool-provider.js';
export { FsToolError } from './fs/fs-errors.js';
export { createFsServer, type FsServerOptions } from './fs/fs-server.js';
export { createInProcessFsProvider, type InProcessFsProviderOptions } from './fs/in-process.js';
export { FS_TOOL_NAMES, type FsToolName } from './fs/tool-definitions.js';
