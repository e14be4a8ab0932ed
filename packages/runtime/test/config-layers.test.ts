// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} text.
import { join } from 'node:path';
import { AgentError, type AgentEvent } from '@agent/protocol';
import type { ModelClientConfig } from '@agent/providers';
import { scriptedModel, startModelServer } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { resolveConfig } from '../src/config/layers.js';
import { describeConfig, runAgentFile, validateAgentFile } from '../src/index.js';
import { finalAnswer } from './helpers/reports.js';
import { agentFile, tempTree, writeTree } from './helpers/temp-tree.js';

const provider = (baseURL: string, extra: object = {}) => ({ type: 'openai-compatible', baseURL, ...extra });

/** Five layers, each in its own directory; `cwd/` and `agents/` differ so both are read. */
function fiveLayers() {
  const root = tempTree({
    'system/agent.json': {
      providers: { p: provider('http://system.test/v1'), sys: provider('http://sys.test/v1') },
      queues: { slow: 1 },
      defaults: { maxTurns: 1, temperature: 0.1, toolOutput: { maxChunks: 2 } },
    },
    'user/agent.json': {
      providers: { p: provider('http://user.test/v1'), usr: provider('http://usr.test/v1') },
      defaults: { maxTurns: 2, toolOutput: { overlapPercent: 5 } },
    },
    'agents/agent.json': { providers: { p: provider('http://agentdir.test/v1') }, defaults: { maxTurns: 3 } },
    'agents/a.ai': agentFile('models: [p/m]'),
    'cwd/agent.json': { providers: { p: provider('http://cwd.test/v1') }, defaults: { maxTurns: 4 } },
    'explicit.json': { providers: { p: provider('http://explicit.test/v1') }, defaults: { maxTurns: 5 } },
  });
  const options = {
    cwd: join(root, 'cwd'),
    env: {},
    userConfigDir: join(root, 'user'),
    systemConfigDir: join(root, 'system'),
  };
  return { root, options };
}

describe('config layers', () => {
  test('the --config file wins, then the cwd, the agent dir, the user dir, the system dir', async () => {
    const { root, options } = fiveLayers();
    const agentDir = join(root, 'agents');
    const order = [
      'explicit.json',
      'cwd/agent.json',
      'agents/agent.json',
      'user/agent.json',
      'system/agent.json',
    ];

    const all = resolveConfig({ ...options, configPath: '../explicit.json' }, agentDir);
    expect(all.layers).toEqual(order.map((f) => join(root, f)));
    expect(all.providers.get('p')?.value.baseURL).toBe('http://explicit.test/v1');
    expect(all.providers.get('p')?.origin).toMatchObject({ path: join(root, 'explicit.json'), line: 3 });
    expect([...all.providers.keys()].sort()).toEqual(['p', 'sys', 'usr']);
    expect(all.defaults).toEqual({
      maxTurns: 5,
      temperature: 0.1,
      toolOutput: { maxChunks: 2, overlapPercent: 5 },
    });
    expect(all.queues).toEqual({ slow: 1 });

    const expectWinner = (host: string, config: ReturnType<typeof resolveConfig>, maxTurns: number) => {
      expect(config.providers.get('p')?.value.baseURL).toBe(`http://${host}.test/v1`);
      expect(config.defaults.maxTurns).toBe(maxTurns);
    };
    expectWinner('cwd', resolveConfig(options, agentDir), 4);
    expectWinner('agentdir', resolveConfig({ ...options, cwd: root }, agentDir), 3);
    expectWinner('user', resolveConfig({ ...options, cwd: root }), 2);
    expectWinner('system', resolveConfig({ ...options, cwd: root, userConfigDir: join(root, 'none') }), 1);

    const described = await describeConfig({
      ...options,
      configPath: '../explicit.json',
      agentFiles: ['../agents/a.ai'],
    });
    expect(described.config.layers).toEqual(order.map((f) => join(root, f)));
    expect(described.config.providers.map((p) => p.name).sort()).toEqual(['p', 'sys', 'usr']);
    expect(described.agents.map((a) => a.toolName)).toEqual(['a']);
  });

  test('a higher layer replaces a whole provider entry; null removes a lower one', () => {
    const root = tempTree({
      'agent.json': { providers: { p: provider('http://top.test/v1'), gone: null } },
      'user/agent.json': {
        providers: {
          p: provider('http://low.test/v1', { apiKey: 'low-layer-key', timeoutMs: 5 }),
          gone: provider('http://x.test/v1'),
        },
      },
    });
    const config = resolveConfig({
      cwd: root,
      env: {},
      userConfigDir: join(root, 'user'),
      systemConfigDir: join(root, 'none'),
    });
    expect(config.providers.get('p')?.value).toEqual(provider('http://top.test/v1'));
    expect(config.providers.has('gone')).toBe(false);
  });

  test('${VAR} comes from the .env beside the config first, then the environment; ${VAR:-default}; $${ is literal', async () => {
    const root = tempTree({
      'project/agent.json': {
        providers: {
          p: provider('${BASE:-http://default.test/v1}', {
            apiKey: '${KEY}',
            headers: {
              'x-env': '${ONLY_ENV}',
              'x-empty': '${EMPTY:-was-empty}',
              'x-literal': 'cost $${PRICE}',
            },
          }),
        },
      },
      'project/.env': 'KEY=from-dotenv-file\n# a comment\nQUOTED="two words"\n',
      'project/a.ai': agentFile('models: [p/m]'),
    });
    const seen: ModelClientConfig[] = [];
    const model = scriptedModel([(request) => ({ text: finalAnswer(request.messages, 'ok') })]);
    const result = await runAgentFile('project/a.ai', 'hi', {
      cwd: root,
      env: { KEY: 'from-environment', ONLY_ENV: 'env-value', EMPTY: '' },
      userConfigDir: join(root, 'none'),
      systemConfigDir: join(root, 'none'),
      clientFactory: ({ config }) => {
        seen.push(config);
        return model;
      },
    });
    expect(result.success).toBe(true);
    expect(seen[0]).toMatchObject({
      baseURL: 'http://default.test/v1',
      apiKey: 'from-dotenv-file',
      headers: { 'x-env': 'env-value', 'x-empty': 'was-empty', 'x-literal': 'cost ${PRICE}' },
    });
  });

  test('a missing variable is an error naming it, the file and the line, when the entry is used', async () => {
    const root = tempTree({
      'agent.json': {
        providers: {
          local: provider('http://127.0.0.1:9/v1'),
          remote: { type: 'anthropic', apiKey: '${REMOTE_API_KEY}' },
        },
      },
      'uses-local.ai': agentFile('models: [local/m]'),
      'uses-remote.ai': agentFile('models: [remote/claude-test]'),
    });
    const options = { cwd: root, env: {}, userConfigDir: join(root, 'u'), systemConfigDir: join(root, 's') };
    expect((await validateAgentFile('uses-local.ai', options)).ok).toBe(true);

    const validation = await validateAgentFile('uses-remote.ai', options);
    expect(validation.problems).toEqual([
      {
        file: 'agent.json',
        line: 9,
        message: expect.stringMatching(
          /^`providers.remote.apiKey` uses \$\{REMOTE_API_KEY\}, which is not set/,
        ),
      },
    ]);
    const result = await runAgentFile('uses-remote.ai', 'hi', options);
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.error).toMatch(/^agent\.json:9: `providers\.remote\.apiKey` uses \$\{REMOTE_API_KEY\}/);
  });

  test('defaults.models naming an unknown provider points at the config line', async () => {
    const root = tempTree({
      'agent.json': {
        providers: { local: provider('http://127.0.0.1:9/v1') },
        defaults: { models: ['locall/m'] },
      },
      'a.ai': agentFile('description: uses the default models'),
    });
    const validation = await validateAgentFile('a.ai', {
      cwd: root,
      env: {},
      userConfigDir: root,
      systemConfigDir: root,
    });
    expect(validation.problems).toEqual([
      {
        file: 'agent.json',
        line: 9,
        message: 'unknown provider `locall` in `locall/m`; did you mean `local`?',
      },
    ]);
  });

  test('a missing variable in defaults fails at once', () => {
    const root = tempTree({ 'agent.json': { defaults: { models: ['${DEFAULT_MODEL}'] } } });
    expect(() => resolveConfig({ cwd: root, env: {}, userConfigDir: root, systemConfigDir: root })).toThrow(
      /agent\.json:\d+: `defaults\.models\[0\]` uses \$\{DEFAULT_MODEL\}/,
    );
  });

  test('config file errors name the line, and suggest the key', () => {
    const cases: [object | string, RegExp][] = [
      [{ provders: {} }, /^agent\.json:2: unknown key `provders`; did you mean `providers`\?$/],
      [
        { providers: { p: { type: 'openai-compatable', baseURL: 'http://x' } } },
        /^agent\.json:4: `providers\.p\.type` must be one of .*; did you mean `openai-compatible`\?$/,
      ],
      [{ providers: { p: { baseURL: 'http://x' } } }, /^agent\.json:3: `providers\.p` needs `type`/],
      [
        { providers: { p: { type: 'openai', apiKey: 12345 } } },
        /^agent\.json:5: `providers\.p\.apiKey` must be a string$/,
      ],
      [
        { mcpServers: { fs: { comand: 'x' } } },
        /^agent\.json:4: unknown key `comand` in `mcpServers\.fs`; did you mean `command`\?$/,
      ],
      [
        { defaults: { maxTurns: -1 } },
        /^agent\.json:3: `defaults\.maxTurns` must be a positive integer \(turns\), got -1$/,
      ],
      ['{\n  "providers": {,\n}', /^agent\.json:2: invalid JSON: /],
    ];
    for (const [content, message] of cases) {
      const root = tempTree({ 'agent.json': content });
      expect(() => resolveConfig({ cwd: root, env: {}, userConfigDir: root, systemConfigDir: root })).toThrow(
        message,
      );
    }
  });

  test('a bad setting is a configuration error with its file and line and, like a ConfigError, field, value and allowed', async () => {
    const cases: [object, Record<string, unknown>][] = [
      [
        { defaults: { maxTurns: -1 } },
        { line: 3, field: 'defaults.maxTurns', value: -1, allowed: 'a positive integer (turns)' },
      ],
      [
        { providers: { p: { type: 'openai', apiKey: 12345 } } },
        { line: 5, field: 'providers.p.apiKey', value: '[redacted]', allowed: 'a string' },
      ],
      [
        { mcpServers: { fs: { command: 'x', cache: 'soon' } } },
        {
          line: 5,
          field: 'mcpServers.fs.cache',
          value: 'soon',
          allowed: expect.stringMatching(/^off, a number of milliseconds, or a duration/),
        },
      ],
    ];
    for (const [content, expected] of cases) {
      const root = tempTree({ 'agent.json': content });
      const failed = await describeConfig({
        cwd: root,
        env: {},
        userConfigDir: root,
        systemConfigDir: root,
      }).catch((error: unknown) => error);
      expect(AgentError.is(failed, 'configuration')).toBe(true);
      expect(failed).toMatchObject({
        kind: 'configuration',
        file: expect.stringMatching(/agent\.json$/),
        ...expected,
      });
    }
  });

  test('--config naming a missing file is not_found', async () => {
    const root = tempTree({ 'a.ai': agentFile('models: [p/m]') });
    const result = await runAgentFile('a.ai', 'hi', { cwd: root, env: {}, configPath: 'nope.json' });
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.error).toBe('nope.json: config file does not exist');
  });
});

describe('secrets are never shown', () => {
  test('keys, header values and server env values are redacted in every log, event, error and result', async () => {
    const apiKey = 'sk-live-4f9c2a7e1b0d3c5a';
    const token = 'team-token-93bd1e7c55aa';
    const server = await startModelServer({ steps: [{ error: { kind: 'auth' } }] });
    try {
      const root = tempTree({
        'agent.json': {
          providers: {
            secret: provider(`${server.url}/v1`, {
              apiKey: '${SECRET_KEY}',
              headers: { 'X-Team-Token': '${TEAM_TOKEN}' },
            }),
          },
          mcpServers: {
            leaky: {
              command: process.execPath,
              args: ['-e', 'process.stderr.write("token is " + process.env.TOKEN + "\\n"); process.exit(3)'],
              env: { TOKEN: '${TEAM_TOKEN}' },
            },
          },
        },
        '.env': `SECRET_KEY=${apiKey}\n`,
        'a.ai': agentFile('models: [secret/m]\ntools: [leaky]\nmaxRetries: 1'),
      });
      const events: AgentEvent[] = [];
      const result = await runAgentFile('a.ai', `please use ${apiKey}`, {
        cwd: root,
        env: { TEAM_TOKEN: token },
        userConfigDir: join(root, 'u'),
        systemConfigDir: join(root, 's'),
        traceLlm: true,
        traceMcp: true,
        onEvent: (event) => events.push(event),
      });
      expect(result.success).toBe(false);
      // The server's failure really carried the token (so redaction had something to do).
      const warning = result.logs.find((l) => l.remoteIdentifier === 'mcp:leaky');
      expect(warning?.message).toContain('token is [REDACTED]');
      const shown = JSON.stringify({
        logs: result.logs,
        error: result.error,
        accounting: result.accounting,
        tree: result.opTree,
        events: events.filter((e) => e.type !== 'output'),
      });
      expect(shown).not.toContain(apiKey);
      expect(shown).not.toContain(token);
      expect(server.requests[0]?.headers?.authorization).toBe('[redacted]');
    } finally {
      await server.close();
    }
  });

  test('a config error about a secret field does not quote the value', () => {
    const root = tempTree({
      'agent.json': { providers: { p: { type: 'openai', headers: { Authorization: 42 } } } },
    });
    writeTree(root, {});
    expect(() => resolveConfig({ cwd: root, env: {}, userConfigDir: root, systemConfigDir: root })).toThrow(
      /`providers\.p\.headers\.Authorization` must be a string$/,
    );
  });
});
