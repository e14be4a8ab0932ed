import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@agent/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServerArgs } from '../src/cli-options.js';
import { mcpSessionLimits } from '../src/server-limits.js';

const dir = mkdtempSync(join(tmpdir(), 'server-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('agent-server options', () => {
  it('merges the config file, AGENT_SERVER_TOKENS and flags (flags win)', () => {
    const config = join(dir, 'server.json');
    writeFileSync(
      config,
      JSON.stringify({
        agents: ['./a.ai'],
        openai: 8082,
        mcp: 'http:8084',
        tokens: ['file'],
        drainSeconds: 5,
      }),
    );
    const parsed = parseServerArgs(
      ['--config', config, '--agent', 'b.ai', '--openai', '9000', '--token', 'flag'],
      {
        AGENT_SERVER_TOKENS: 'env1, env2',
      },
    );
    expect(parsed.agents).toEqual([join(dir, 'a.ai'), 'b.ai']);
    expect(parsed.openai).toBe(9000);
    expect(parsed.mcp).toEqual({ kind: 'http', port: 8084 });
    expect(parsed.tokens).toEqual(['file', 'env1', 'env2', 'flag']);
    expect(parsed.drainSeconds).toBe(5);
    expect(parsed.host).toBe('127.0.0.1');
  });

  it('merges operator tokens from server.json, AGENT_SERVER_OPERATOR_TOKENS and --operator-token; they alone are enough', () => {
    const config = join(dir, 'operators.json');
    writeFileSync(config, JSON.stringify({ agents: ['./a.ai'], api: 0, operatorTokens: ['ops-file'] }));
    const parsed = parseServerArgs(['--config', config, '--operator-token', 'ops-flag'], {
      AGENT_SERVER_OPERATOR_TOKENS: 'ops-env',
    });
    expect(parsed.operatorTokens).toEqual(['ops-file', 'ops-env', 'ops-flag']);
    expect(parsed.tokens).toEqual([]);
    writeFileSync(config, JSON.stringify({ agents: ['./a.ai'], api: 0, operatorTokens: 'ops' }));
    expect(() => parseServerArgs(['--config', config], {})).toThrow(
      /"operatorTokens" must be an array of strings/,
    );
  });

  it('reads the client limits from server.json and flags (flags win)', () => {
    const config = join(dir, 'limits.json');
    writeFileSync(
      config,
      JSON.stringify({
        agents: ['./a.ai'],
        api: 0,
        tokens: ['t'],
        maxConnections: 10,
        requestTimeoutSeconds: 30,
        mcpMaxSessions: 5,
        mcpIdleTimeoutSeconds: 60,
      }),
    );
    const parsed = parseServerArgs(
      [
        '--config',
        config,
        '--max-connections',
        '20',
        '--headers-timeout',
        '2.5',
        '--mcp-max-sessions-per-token',
        '3',
      ],
      {},
    );
    expect(parsed).toMatchObject({
      maxConnections: 20,
      requestTimeoutSeconds: 30,
      headersTimeoutSeconds: 2.5,
      mcpMaxSessions: 5,
      mcpMaxSessionsPerToken: 3,
      mcpIdleTimeoutSeconds: 60,
    });
    expect(parsed.keepAliveTimeoutSeconds).toBeUndefined();
  });

  it('reaches the REST headend option assistantText from server.json and --assistant-text (default off)', () => {
    const config = join(dir, 'rest-options.json');
    writeFileSync(config, JSON.stringify({ agents: ['./a.ai'], api: 0, tokens: ['t'] }));
    expect(parseServerArgs(['--config', config], {}).assistantText).toBeUndefined();
    expect(parseServerArgs(['--config', config, '--assistant-text'], {}).assistantText).toBe(true);
    writeFileSync(config, JSON.stringify({ agents: ['./a.ai'], api: 0, tokens: ['t'], assistantText: true }));
    expect(parseServerArgs(['--config', config], {}).assistantText).toBe(true);
    writeFileSync(
      config,
      JSON.stringify({ agents: ['./a.ai'], api: 0, tokens: ['t'], assistantText: 'yes' }),
    );
    expect(() => parseServerArgs(['--config', config], {})).toThrow(
      '"assistantText" must be true or false, not "yes"',
    );
  });

  it('reaches every MCP headend option: stream close and approval timeout from server.json and flags', () => {
    const config = join(dir, 'mcp-options.json');
    writeFileSync(
      config,
      JSON.stringify({ agents: ['./a.ai'], mcp: 'http:0', tokens: ['t'], mcpApprovalTimeoutSeconds: 30 }),
    );
    const parsed = parseServerArgs(['--config', config, '--mcp-stream-close', '0.5'], {});
    // What the MCP headend is created with (start-headends passes mcpSessionLimits(config)).
    expect(mcpSessionLimits(parsed)).toMatchObject({ streamCloseAfterMs: 500, approvalTimeoutMs: 30_000 });
  });

  it('reaches every numeric Slack headend option from slack: {...} in server.json', () => {
    const config = join(dir, 'slack-options.json');
    const slack = { pingTimeoutMs: 2000, signatureWindowSeconds: 60, bodyLimitBytes: 4096 };
    writeFileSync(config, JSON.stringify({ agents: ['./a.ai'], slack }));
    expect(parseServerArgs(['--config', config], {}).slack).toEqual(slack);
  });

  it('takes the hostnames the faces answer from --allowed-host and allowedHosts, refusing a URL', () => {
    const config = join(dir, 'hosts.json');
    writeFileSync(
      config,
      JSON.stringify({ agents: ['a.ai'], api: 8080, tokens: ['t'], allowedHosts: ['Agents.Example.com'] }),
    );
    const parsed = parseServerArgs(['--config', config, '--allowed-host', '10.0.0.5'], {});
    expect(parsed.allowedHosts).toEqual(['agents.example.com', '10.0.0.5']);
    expect(() =>
      parseServerArgs(['--config', config, '--allowed-host', 'https://evil.example:8080'], {}),
    ).toThrow(
      '--allowed-host: "https://evil.example:8080" is not a hostname: give it without scheme, port or path, like agents.example.com',
    );
  });

  it('explains what is wrong', () => {
    const fail = (args: string[]) => {
      try {
        parseServerArgs(args, {});
        return 'no error';
      } catch (error) {
        return error instanceof ConfigError ? error.message : `other: ${(error as Error).message}`;
      }
    };
    expect(fail(['--api', '1'])).toMatch(/no agents/);
    expect(fail(['--agent', 'a.ai', '--token', 't'])).toMatch(/no headend/);
    expect(fail(['--agent', 'a.ai', '--mcp', 'tcp:1', '--token', 't'])).toMatch(/"stdio" or "http:<port>"/);
    expect(fail(['--agent', 'a.ai', '--mcp', 'stdio', '--allow-no-auth', '--host', '10.0.0.1'])).toMatch(
      /refused on 10\.0\.0\.1/,
    );
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ agent: ['a.ai'] }));
    expect(fail(['--config', bad])).toMatch(/unknown key "agent"/);
    const base = ['--agent', 'a.ai', '--api', '0', '--token', 't'];
    expect(fail([...base, '--headers-timeout', '90'])).toMatch(
      /--headers-timeout \(90s\) must not be longer than --request-timeout \(60s\)/,
    );
    expect(fail([...base, '--max-connections', '1.5'])).toMatch(
      /other: .*expected a whole number of at least 1/,
    );
    expect(fail([...base, '--request-timeout', '0'])).toMatch(
      /other: .*expected a number of seconds above 0/,
    );
    const zero = join(dir, 'zero.json');
    writeFileSync(zero, JSON.stringify({ mcpMaxSessions: 0 }));
    expect(fail([...base, '--config', zero])).toMatch(
      /"mcpMaxSessions" must be a whole number of at least 1, not 0/,
    );
  });

  it('enables Slack with --slack alone (no bearer tokens needed) or with slack: {...} in server.json', () => {
    expect(parseServerArgs(['--agent', 'a.ai', '--slack'], {}).slack).toEqual({});
    expect(parseServerArgs(['--agent', 'a.ai', '--slack-port', '3001'], {}).slack).toEqual({ port: 3001 });
    const config = join(dir, 'slack.json');
    const routes = [
      { channels: ['secret-*'], deny: true },
      { channels: ['#eng-*', 'C0123'], engage: ['mentions', 'channel-posts'], agent: 'b' },
    ];
    writeFileSync(
      config,
      JSON.stringify({
        agents: ['./a.ai'],
        slack: { defaultAgent: 'a', routes, historyMessages: 10, historyChars: 4000, updateIntervalMs: 1500 },
      }),
    );
    const parsed = parseServerArgs(['--config', config, '--slack-port', '0'], {});
    expect(parsed.slack).toEqual({
      defaultAgent: 'a',
      routes,
      historyMessages: 10,
      historyChars: 4000,
      updateIntervalMs: 1500,
      port: 0,
    });
    expect(parsed.tokens).toEqual([]);
  });

  it('explains what is wrong in slack: {...}, never echoing a secret', () => {
    const fail = (slack: unknown) => {
      const config = join(dir, 'bad-slack.json');
      writeFileSync(config, JSON.stringify({ agents: ['./a.ai'], slack }));
      try {
        parseServerArgs(['--config', config], {});
        return 'no error';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(fail({ token: 'x' })).toMatch(/unknown key "slack\.token" \(allowed: port, routes, botToken/);
    expect(fail({ botToken: 12345678 })).toMatch(/"slack\.botToken" must be a string$/);
    expect(fail({ botToken: 12345678 })).not.toContain('12345678');
    expect(fail({ routes: [{ channel: 'x' }] })).toMatch(/slack\.routes\[0\]: unknown key "channel"/);
    expect(fail({ routes: [{ engage: 'mentions' }] })).toMatch(
      /slack\.routes\[0\]\.engage must be an array of strings/,
    );
    expect(fail({ historyChars: -1 })).toMatch(/"slack\.historyChars" must be a non-negative integer/);
    expect(fail([])).toMatch(/"slack" must be an object/);
  });
});
