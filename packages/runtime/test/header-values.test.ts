// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} text.
import { startModelServer } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { runAgentFile, validateAgentFile } from '../src/index.js';
import { agentFile, isolated, tempTree } from './helpers/temp-tree.js';

// A value sent in an HTTP header (a provider's apiKey or headers, an MCP server's headers)
// that no header can carry is a configuration error before any request, naming the field
// and the variable, never the value.

const keyHead = 'sk-live-0a1b2c3d4e5f';
const keyTail = '6a7b8c9d0e1f2a3b';

describe('values no HTTP header can carry', () => {
  test('an API key with a line break in .env: a config error naming the field and variable, and no request', async () => {
    const server = await startModelServer({ steps: [{ text: 'never sent' }] });
    try {
      const root = tempTree({
        'agent.json': {
          providers: {
            remote: { type: 'openai-compatible', baseURL: `${server.url}/v1`, apiKey: '${REMOTE_KEY}' },
          },
        },
        '.env': `REMOTE_KEY="${keyHead}\\n${keyTail}"\n`,
        'a.ai': agentFile('models: [remote/m]'),
      });
      const message =
        '`providers.remote.apiKey` holds a line break (from ${REMOTE_KEY}, set in the .env beside agent.json), which no HTTP header can carry (only printable characters and tabs); fix the value';
      const validation = await validateAgentFile('a.ai', isolated(root));
      expect(validation.problems).toEqual([{ file: 'agent.json', line: 6, message }]);

      const result = await runAgentFile('a.ai', 'hi', isolated(root));
      expect(result.exitCode).toBe('EXIT-CONFIGURATION');
      expect(result.error).toBe(`agent.json:6: ${message}`);
      expect(server.requests).toHaveLength(0);
      expect(JSON.stringify([validation, result])).not.toContain(keyTail);
    } finally {
      await server.close();
    }
  });

  test('NUL, control characters, characters beyond U+00FF and bad header names, from the environment or written', async () => {
    const root = tempTree({
      'agent.json': {
        providers: {
          p: {
            type: 'openai-compatible',
            baseURL: 'http://127.0.0.1:9/v1',
            headers: { 'X-Team': '${TEAM_TOKEN}', 'X Title': 'my agent' },
          },
          q: { type: 'openai', apiKey: `${keyHead}\u2026` },
        },
        mcpServers: {
          remote: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer \u0007bell' } },
        },
      },
      'p.ai': agentFile('models: [p/m]'),
      'q.ai': agentFile('models: [q/m]'),
      'mcp.ai': agentFile('models: [p/m]\ntools: [remote]'),
    });
    const options = { ...isolated(root), env: { TEAM_TOKEN: `team\u0000${keyTail}` } };
    const messages = async (entry: string) =>
      (await validateAgentFile(entry, options)).problems.map((p) => `${p.file}:${p.line}: ${p.message}`);
    const tail = 'which no HTTP header can carry (only printable characters and tabs); fix the value';
    expect(await messages('p.ai')).toEqual([
      `agent.json:7: \`providers.p.headers.X-Team\` holds a NUL character (from \${TEAM_TOKEN}, set in the environment), ${tail}`,
    ]);
    expect(await messages('q.ai')).toEqual([
      `agent.json:13: \`providers.q.apiKey\` holds a character beyond U+00FF (U+2026), ${tail}`,
    ]);
    expect(await messages('mcp.ai')).toEqual([
      `agent.json:7: \`providers.p.headers.X-Team\` holds a NUL character (from \${TEAM_TOKEN}, set in the environment), ${tail}`,
      `agent.json:20: \`mcpServers.remote.headers.Authorization\` holds a control character (U+0007), ${tail}`,
    ]);
    // Fixing the value fixes the file; a bad header name is reported once the values are fine.
    const fixed = await validateAgentFile('p.ai', { ...options, env: { TEAM_TOKEN: 'team' } });
    expect(fixed.problems.map((p) => `${p.file}:${p.line}: ${p.message}`)).toEqual([
      `agent.json:8: \`providers.p.headers\` has the header name "X Title", which is not a valid HTTP header name (letters, digits and !#$%&'*+-.^_\`|~ only); rename it`,
    ]);
  });

  test('only the entries an agent uses are checked, like unset variables', async () => {
    const root = tempTree({
      'agent.json': {
        providers: {
          good: { type: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1' },
          broken: { type: 'openai', apiKey: 'line\nbreak-in-this-key' },
        },
      },
      'a.ai': agentFile('models: [good/m]'),
    });
    expect((await validateAgentFile('a.ai', isolated(root))).problems).toEqual([]);
  });
});
