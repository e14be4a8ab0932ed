import { AgentError, type ToolErrorKind, type ToolResult } from '@agent/protocol';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** The server cannot be reached right now (failed to start, crashed, backing off, closed). */
export class McpUnavailableError extends AgentError {
  override readonly name = 'McpUnavailableError';

  constructor(message: string, options?: { cause?: unknown }) {
    super('mcp_unavailable', message, options);
  }
}

export function toolError(kind: ToolErrorKind, message: string): ToolResult {
  return { ok: false, error: { kind, message } };
}

/** The message of anything thrown, with the network cause a bare `fetch failed` hides. */
export function transportErrorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // `fetch failed` alone says little: add the network cause (ECONNREFUSED, ENOTFOUND, ...).
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const detail =
    typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : '';
  return detail && !error.message.includes(detail) ? `${error.message} (${detail})` : error.message;
}

/** Whether a failed request means the connection itself is gone (so the next use reconnects). */
export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof McpUnavailableError) return true;
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed;
  // Anything thrown that is not an MCP protocol error came from the transport (fetch, pipes).
  return !(error instanceof McpError);
}

/** Maps what a `tools/call` threw onto the protocol's tool error kinds. */
export function classifyCallError(
  error: unknown,
  context: { server: string; tool: string; timeoutMs: number; aborted: boolean },
): ToolResult {
  const where = `MCP server "${context.server}", tool "${context.tool}"`;
  if (context.aborted) return toolError('aborted', `The call to ${where} was cancelled.`);
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return toolError(
      'timeout',
      `${where} did not answer within ${context.timeoutMs} ms; the call was cancelled.`,
    );
  }
  if (error instanceof McpUnavailableError) return toolError('transport', `${where}: ${error.message}`);
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return toolError(
      'transport',
      `${where}: the connection closed before the call finished (the server may have crashed); it will be restarted on the next call.`,
    );
  }
  if (error instanceof McpError) return toolError('execution', `${where} failed: ${error.message}`);
  return toolError(
    'transport',
    `${where}: transport error: ${transportErrorText(error)}; it will reconnect on the next call.`,
  );
}
