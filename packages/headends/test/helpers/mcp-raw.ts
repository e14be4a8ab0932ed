import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

/** What a raw MCP request got back. */
export interface RawMcpAnswer {
  status: number;
  sessionId: string | null;
  retryAfter: string | null;
  body: string;
}

const headers = (token: string | undefined, sessionId?: string): Record<string, string> => ({
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
  ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
  ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
});

async function answer(response: Response): Promise<RawMcpAnswer> {
  return {
    status: response.status,
    sessionId: response.headers.get('mcp-session-id'),
    retryAfter: response.headers.get('retry-after'),
    body: await response.text(),
  };
}

/** A raw `initialize` POST, as a client that never sends DELETE would send it. */
export async function rawInitialize(mcpUrl: string, token?: string, id: number = 1): Promise<RawMcpAnswer> {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: headers(token),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'raw-client', version: '1.0.0' },
      },
    }),
  });
  return answer(response);
}

/** A raw `tools/list` on an existing session (404 once the session is gone). */
export async function rawListTools(mcpUrl: string, sessionId: string, token?: string): Promise<RawMcpAnswer> {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: headers(token, sessionId),
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
  });
  return answer(response);
}

/** A raw `DELETE` ending a session. */
export async function rawDelete(mcpUrl: string, sessionId: string, token?: string): Promise<RawMcpAnswer> {
  return answer(await fetch(mcpUrl, { method: 'DELETE', headers: headers(token, sessionId) }));
}

/** An official SDK client connected (initialized) with `token`. */
export async function sdkClient(
  mcpUrl: string,
  token: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'limits-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return { client, transport };
}
