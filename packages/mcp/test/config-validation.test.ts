import { ConfigError } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { validateServerConfig } from '../src/index.js';

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
    [{ type: 'stdio' }, 'command', 'MCP server "s": command must be a non-empty string, got nothing'],
    [{ type: 'http', url: 'ftp://x' }, 'url', 'MCP server "s": url must use http: or https:, got ftp:'],
    [{ type: 'http', url: 'not a url' }, 'url', 'MCP server "s": url is not a valid URL'],
    [{ type: 'stdio', command: 'x', args: 'a b' }, 'args', 'args must be an array of strings, got "a b"'],
    [
      { type: 'stdio', command: 'x', toolTimeoutMs: -1 },
      'toolTimeoutMs',
      'toolTimeoutMs must be a positive number of milliseconds, got -1',
    ],
    [
      { type: 'sse', url: 'http://x', denyTools: [1] },
      'denyTools',
      'denyTools must be an array of strings, got a list of 1 item',
    ],
    [
      { type: 'http', url: 'http://x', headers: { a: 1 } },
      'headers',
      'headers must be an object of string values, got "[redacted]"',
    ],
    [{ type: 'custom' }, 'createTransport', 'createTransport must be a function'],
    ['nope', 'entry', 'entry must be an object, got "nope"'],
  ])('rejects %j with a ConfigError naming the field', (config, field, message) => {
    expect(() => validateServerConfig('s', config)).toThrow(message);
    expect(() => validateServerConfig('s', config)).toThrow(
      expect.objectContaining({ code: 'configuration', field }) as unknown as Error,
    );
    expect(() => validateServerConfig('s', config)).toThrow(ConfigError);
  });

  it('never echoes header values, env values or a URL that may carry a token', () => {
    const secret = 'Bearer sk-mcp-secret-42';
    for (const config of [
      { type: 'http', url: 'http://x', headers: { authorization: secret, n: 1 } },
      { type: 'stdio', command: 'x', env: { TOKEN: secret, N: 2 } },
      { type: 'http', url: `gopher://u:${secret}@host` },
    ]) {
      let thrown: unknown;
      try {
        validateServerConfig('s', config);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigError);
      expect(JSON.stringify({ ...(thrown as object), message: (thrown as Error).message })).not.toContain(
        'sk-mcp',
      );
    }
  });
});
