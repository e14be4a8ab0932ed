// `@agent/mcp`: the MCP client side, MCP servers as `ToolProvider`s. The root-confined filesystem
// server is the `@agent/mcp/fs-server` sub-path.

export { McpAuthorizationRequiredError } from './auth/auth-errors.js';
export {
  defaultMcpAuthDir,
  loginMcpServer,
  type McpAuthState,
  type McpLoginOptions,
  mcpAuthState,
} from './auth/login.js';
export { clientCredentialsFetch } from './auth/oauth-fetch.js';
export { type McpAuthOptions, McpOAuthProvider } from './auth/oauth-provider.js';
export {
  FileTokenStore,
  type McpTokenStore,
  MemoryTokenStore,
  type StoredAuthorization,
} from './auth/token-store.js';
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_QUEUE,
  DEFAULT_TOOL_TIMEOUT_MS,
  IDEMPOTENCY_KEY_META,
  type McpCustomServerConfig,
  type McpHealthProbe,
  type McpHttpServerConfig,
  type McpLogEntry,
  type McpLogSink,
  type McpOAuthConfig,
  type McpServerCommonConfig,
  type McpServerConfig,
  type McpSseServerConfig,
  type McpStdioServerConfig,
  type McpTransportType,
  type McpWebSocketServerConfig,
  TOOL_CALL_ID_META,
} from './client/config.js';
export { validateServerConfig } from './client/config-validation.js';
export type { BackoffOptions } from './client/connection.js';
export {
  type CreateMcpToolProvidersOptions,
  createMcpToolProviders,
  type McpToolProviderSet,
  type McpWarning,
} from './client/create-providers.js';
export { McpToolProvider, type McpToolProviderOptions } from './client/mcp-tool-provider.js';
export { McpUnavailableError } from './client/tool-errors.js';
export { createToolFilter, type ToolNameFilter } from './client/tool-filter.js';
export { defaultToolQueues, QueueAbortedError, ToolQueues } from './client/tool-queues.js';
