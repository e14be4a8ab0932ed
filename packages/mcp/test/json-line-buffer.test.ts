import { AgentError } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { JsonLineBuffer } from '../src/transports/json-line-buffer.js';
import { ProcessGroupStdioTransport } from '../src/transports/stdio-transport.js';

describe('JsonLineBuffer', () => {
  it('splits lines across chunks, strips CR, and keeps a partial line for later', () => {
    const buffer = new JsonLineBuffer(1024);
    expect(buffer.push(Buffer.from('{"a":1}\n{"b"'))).toEqual(['{"a":1}']);
    expect(buffer.push(Buffer.from(':2}\r\n\n{"c":3}'))).toEqual(['{"b":2}', '']);
    expect(buffer.push(Buffer.from('\n'))).toEqual(['{"c":3}']);
  });

  it('reassembles a multi-byte character split between chunks', () => {
    const bytes = Buffer.from('"héllo"\n');
    const buffer = new JsonLineBuffer(1024);
    expect(buffer.push(bytes.subarray(0, 3))).toEqual([]);
    expect(buffer.push(bytes.subarray(3))).toEqual(['"héllo"']);
  });

  it('refuses a line over the limit with the limit in the message', () => {
    const buffer = new JsonLineBuffer(8);
    expect(() => buffer.push(Buffer.from('0123456789'))).toThrow('exceeded the limit of 8 bytes');
    expect(() => buffer.push(Buffer.from('0123456789'))).toThrow(
      expect.objectContaining({ code: 'mcp_unavailable', name: 'McpUnavailableError' }),
    );
    expect(buffer.push(Buffer.from('ok\n'))).toEqual(['ok']);
  });
});

describe('ProcessGroupStdioTransport', () => {
  it('a command that does not exist rejects start() with an AgentError (mcp_unavailable) naming it', async () => {
    const transport = new ProcessGroupStdioTransport({ command: 'definitely-not-a-command-4711' });
    const failed = await transport.start().catch((error: unknown) => error);
    expect(AgentError.is(failed, 'mcp_unavailable')).toBe(true);
    expect((failed as Error).message).toBe('command not found: "definitely-not-a-command-4711"');
    await expect(transport.send({ jsonrpc: '2.0', method: 'ping', id: 1 })).rejects.toSatisfy((error) =>
      AgentError.is(error, 'mcp_unavailable'),
    );
  });
});
