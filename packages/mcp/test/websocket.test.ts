import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpToolProviders, validateServerConfig } from '../src/index.js';
import { startWebSocketMcpServer, type WebSocketMcpServer } from './fixtures/websocket-mcp-server.js';
import { noSignal } from './helpers.js';

describe('the websocket transport (the SDK client over a real loopback WebSocket server)', () => {
  let server: WebSocketMcpServer;
  beforeAll(async () => {
    server = await startWebSocketMcpServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists and calls the tools of a server declared with type websocket', async () => {
    const set = await createMcpToolProviders({ live: { type: 'websocket', url: server.url } });
    try {
      expect(set.warnings).toEqual([]);
      const [provider] = set.providers;
      const tools = await provider!.listTools();
      expect(tools.map((t) => [t.name, t.description])).toEqual([['live__shout', 'Upper-cases its text']]);
      const result = await provider!.execute(
        { name: 'live__shout', arguments: { text: 'over a socket' }, callId: '1' },
        { signal: noSignal() },
      );
      expect(result).toMatchObject({ ok: true, text: 'OVER A SOCKET' });
      // The SDK's transport asks for MCP's WebSocket subprotocol.
      expect(server.protocols[0]).toEqual(['mcp']);
    } finally {
      await set.close();
    }
  });

  it('a server that is not listening is a warning naming it, not a hang', async () => {
    const gone = await startWebSocketMcpServer();
    await gone.stop();
    const set = await createMcpToolProviders({ gone: { type: 'websocket', url: gone.url } });
    try {
      expect(set.providers).toEqual([]);
      expect(set.warnings.map((w) => w.server)).toEqual(['gone']);
    } finally {
      await set.close();
    }
  });
});

describe('websocket server entries are checked', () => {
  it('needs a ws: or wss: URL', () => {
    expect(() => validateServerConfig('w', { type: 'websocket', url: 'http://h/mcp' })).toThrow(
      /url must use ws: or wss:, got http:/,
    );
    expect(validateServerConfig('w', { type: 'websocket', url: 'wss://h/mcp' })).toMatchObject({
      type: 'websocket',
    });
  });

  it('refuses headers and oauth, which the transport could not send, without echoing them', () => {
    const attempt = () =>
      validateServerConfig('w', {
        type: 'websocket',
        url: 'ws://h',
        headers: { authorization: 'Bearer s3cret' },
      });
    expect(attempt).toThrow(/`headers` cannot be used with the websocket transport/);
    try {
      attempt();
    } catch (error) {
      expect(JSON.stringify(error) + String(error)).not.toContain('s3cret');
    }
  });
});
