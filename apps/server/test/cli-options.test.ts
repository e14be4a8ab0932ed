import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServerArgs } from '../src/cli-options.js';
import { ServerConfigError } from '../src/server-config.js';

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

  it('explains what is wrong', () => {
    const fail = (args: string[]) => {
      try {
        parseServerArgs(args, {});
        return 'no error';
      } catch (error) {
        return error instanceof ServerConfigError ? error.message : `other: ${(error as Error).message}`;
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
  });
});
