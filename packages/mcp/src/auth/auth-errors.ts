import { AgentError } from '@agent/protocol';

/**
 * The server wants an OAuth authorization the client cannot get on its own here (no stored
 * token, or a refresh that failed, during a non-interactive run). The message says what to run.
 */
export class McpAuthorizationRequiredError extends AgentError {
  override readonly name = 'McpAuthorizationRequiredError';

  constructor(
    readonly server: string,
    reason = 'it has no valid token',
  ) {
    super(
      'mcp_unavailable',
      `MCP server "${server}" requires authorization and ${reason}: run \`agent mcp login ${server}\``,
    );
  }
}
