import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { WebSocket as NodeWebSocket } from 'ws';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../client/config.js';

/**
 * `ws`'s client with a bound on the size of one message (the SDK's transport sets none; `ws`
 * would accept 100 MiB frames by default).
 */
class BoundedWebSocket extends NodeWebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols, { maxPayload: DEFAULT_MAX_MESSAGE_BYTES });
  }
}

/**
 * The SDK's WebSocket client transport (subprotocol `mcp`). It opens the socket with the WHATWG
 * `WebSocket` global, which Node has from version 22; on Node 20 `ws`'s client, which has the
 * same `onopen` / `onmessage` / `onerror` / `onclose` interface, is installed as that global the
 * first time a WebSocket server is connected (never when one exists already).
 */
export function createWebSocketTransport(url: string): Transport {
  const scope = globalThis as { WebSocket?: unknown };
  scope.WebSocket ??= BoundedWebSocket;
  return new WebSocketClientTransport(new URL(url));
}
