export { type ArgumentCheck, ArgumentValidator } from './client/argument-validator.js';
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_QUEUE,
  DEFAULT_TOOL_TIMEOUT_MS,
  type McpCustomServerConfig,
  type McpHttpServerConfig,
  type McpLogEntry,
  type McpLogSink,
  type McpServerCommonConfig,
  type McpServerConfig,
  type McpSseServerConfig,
  type McpStdioServerConfig,
  type McpTransportType,
} from './client/config.js';
export { McpConfigError, validateServerConfig } from './client/config-validation.js';
export type { BackoffOptions } from './client/connection.js';
export {
  type CreateMcpToolProvidersOptions,
  createMcpToolProviders,
  type McpToolProviderSet,
  type McpWarning,
} from './client/create-providers.js';
export { McpToolProvider, type McpToolProviderOptions } from './client/mcp-tool-provider.js';
export { convertCallToolResult } from './client/result-conversion.js';
export { McpUnavailableError } from './client/tool-errors.js';
export { createToolFilter, type ToolNameFilter } from './client/tool-filter.js';
export { exposedToolNames, MAX_TOOL_NAME_LENGTH } from './client/tool-names.js';
export { defaultToolQueues, QueueAbortedError, ToolQueues } from './client/tool-queues.js';
export { createFsServer, type FsServerOptions } from './fs/fs-server.js';
export { createInProcessFsProvider, type InProcessFsProviderOptions } from './fs/in-process.js';
export { FS_TOOL_NAMES, type FsToolName } from './fs/tool-definitions.js';
export { ProcessGroupStdioTransport, type StdioTransportOptions } from './transports/stdio-transport.js';
