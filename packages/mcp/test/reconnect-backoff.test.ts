import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { type McpLogEntry, McpToolProvider, ToolQueues } from '../src/index.js';
import { noSignal } from './helpers.js';

/** A server reached through `custom` transports whose availability the test switches. */
function switchableServer() {
  const state = { up: true, connects: 0, serverSide: undefined as InMemoryTransport | undefined };
  const createTransport = async () => {
    state.connects++;
    if (!state.up) throw new Error('server is down');
    const [client, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new Server({ name: 'switchable', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: 'ping', inputSchema: { type: 'object' } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, async () => ({
      content: [{ type: 'text', text: 'pong' }],
    }));
    await server.connect(serverSide);
    state.serverSide = serverSide;
    return client;
  };
  return { state, createTransport };
}

describe('reconnecting with backoff', () => {
  it('keeps the last tool list while down, fails fast during backoff, and recovers', async () => {
    const { state, createTransport } = switchableServer();
    const logs: McpLogEntry[] = [];
    const provider = new McpToolProvider(
      'sw',
      { type: 'custom', createTransport },
      {
        queues: new ToolQueues(),
        backoff: { initialMs: 200, maxMs: 1000 },
        onLog: (entry) => logs.push(entry),
      },
    );
    const ping = () =>
      provider.execute({ name: 'sw__ping', arguments: {}, callId: 'p' }, { signal: noSignal() });
    try {
      expect(await ping()).toMatchObject({ ok: true, text: 'pong' });
      // The server goes away (its side of the transport closes) and cannot be restarted yet.
      state.up = false;
      await state.serverSide?.close();
      expect((await provider.listTools()).map((tool) => tool.name)).toEqual(['sw__ping']);
      const failed = await ping();
      expect(failed).toMatchObject({ ok: false, error: { kind: 'transport' } });
      expect(failed.ok === false && failed.error.message).toContain('server is down');
      const connectsAfterFailure = state.connects;
      const fast = await ping();
      expect(fast.ok === false && fast.error.message).toMatch(/next reconnect attempt is in \d+ ms/);
      expect(state.connects).toBe(connectsAfterFailure);
      state.up = true;
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await ping()).toMatchObject({ ok: true, text: 'pong' });
      expect(
        logs.some((entry) => entry.level === 'warn' && entry.message.includes('closed the connection')),
      ).toBe(true);
      expect(logs.some((entry) => entry.level === 'error' && entry.message.includes('server is down'))).toBe(
        true,
      );
    } finally {
      await provider.close();
    }
  });
});
