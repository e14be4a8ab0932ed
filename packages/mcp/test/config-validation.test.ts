import { describe, expect, it } from 'vitest';
import { McpConfigError, validateServerConfig } from '../src/index.js';

describe('validateServerConfig', () => {
  it('accepts the three transport shapes', () => {
    expect(
      validateServerConfig('a', {
        type: 'stdio',
        command: 'node',
        args: ['x'],
        env: { K: 'v' },
        toolTimeoutMs: 5000,
      }),
    ).toMatchObject({
      type: 'stdio',
    });
    expect(
      validateServerConfig('b', {
        type: 'http',
        url: 'https://example.com/mcp',
        headers: { authorization: 'x' },
      }),
    ).toMatchObject({
      type: 'http',
    });
    expect(
      validateServerConfig('c', {
        type: 'sse',
        url: 'http://127.0.0.1:1/sse',
        allowTools: ['get_*'],
        queue: 'web',
      }),
    ).toMatchObject({
      type: 'sse',
    });
  });

  it.each([
    [{ type: 'stdio' }, 'MCP server "s": "command" must be a non-empty string, got undefined'],
    [{ type: 'http', url: 'ftp://x' }, '"url" must use http: or https:, got ftp:'],
    [{ type: 'http', url: 'not a url' }, '"url" is not a valid URL: "not a url"'],
    [{ type: 'stdio', command: 'x', args: 'a b' }, '"args" must be an array of strings, got "a b"'],
    [{ type: 'stdio', command: 'x', toolTimeoutMs: -1 }, '"toolTimeoutMs" must be a positive number'],
    [{ type: 'sse', url: 'http://x', denyTools: [1] }, '"denyTools" must be an array of strings, got [1]'],
    [{ type: 'http', url: 'http://x', headers: { a: 1 } }, '"headers" must be an object of string values'],
    [{ type: 'custom' }, '"createTransport" must be a function'],
    ['nope', 'the entry must be an object'],
  ])('rejects %j', (config, message) => {
    expect(() => validateServerConfig('s', config)).toThrow(McpConfigError);
    expect(() => validateServerConfig('s', config)).toThrow(message);
  });
});
