import { expect, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time). Adding or removing an
// export is a visible change to this list; internals stay unexported or under `/internal`.
test('@agent/mcp exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/mcp')).sort()).toEqual([
    'DEFAULT_CONNECT_TIMEOUT_MS',
    'DEFAULT_MAX_MESSAGE_BYTES',
    'DEFAULT_QUEUE',
    'DEFAULT_TOOL_TIMEOUT_MS',
    'FileTokenStore',
    'IDEMPOTENCY_KEY_META',
    'McpAuthorizationRequiredError',
    'McpOAuthProvider',
    'McpToolProvider',
    'McpUnavailableError',
    'MemoryTokenStore',
    'QueueAbortedError',
    'TOOL_CALL_ID_META',
    'ToolQueues',
    'clientCredentialsFetch',
    'createMcpToolProviders',
    'createToolFilter',
    'defaultMcpAuthDir',
    'defaultToolQueues',
    'loginMcpServer',
    'mcpAuthState',
    'validateServerConfig',
  ]);
});

test('@agent/mcp/fs-server exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/mcp/fs-server')).sort()).toEqual([
    'FS_TOOL_NAMES',
    'FsToolError',
    'createFsServer',
    'createInProcessFsProvider',
  ]);
});
