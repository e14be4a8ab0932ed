import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@agent/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServerArgs } from '../src/cli-options.js';

const dir = mkdtempSync(join(tmpdir(), 'server-a2a-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a server.json with this `a2a` section and parses it (plus `args`). */
function withA2a(a2a: unknown, args: string[] = []) {
  const config = join(dir, 'server.json');
  writeFileSync(config, JSON.stringify({ agents: ['./a.ai'], tokens: ['t'], a2a }));
  return parseServerArgs(['--config', config, ...args], {});
}

function failure(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('no error');
}

describe('agent-server A2A options', () => {
  it('reads a2a: {...} from server.json; --a2a replaces its port and alone enables the face', () => {
    const a2a = {
      port: 8094,
      publicUrl: 'https://agents.example.com/',
      publicCard: false,
      legacy: false,
      maxTasks: 50,
      provider: { organization: 'Example Corp', url: 'https://example.com' },
    };
    expect(withA2a(a2a).a2a).toEqual({ ...a2a, publicUrl: 'https://agents.example.com' });
    expect(withA2a(a2a, ['--a2a', '0']).a2a).toMatchObject({ port: 0, publicCard: false, maxTasks: 50 });
    expect(parseServerArgs(['--agent', 'a.ai', '--a2a', '9000', '--token', 't'], {}).a2a).toEqual({
      port: 9000,
    });
    expect(parseServerArgs(['--agent', 'a.ai', '--api', '0', '--token', 't'], {}).a2a).toBeUndefined();
  });

  it('is an HTTP face: it alone is a headend, and it needs tokens unless --allow-no-auth on loopback', () => {
    expect(failure(() => parseServerArgs(['--agent', 'a.ai', '--a2a', '0'], {})).message).toMatch(
      /no tokens/,
    );
    expect(
      failure(() =>
        parseServerArgs(['--agent', 'a.ai', '--a2a', '0', '--allow-no-auth', '--host', '0.0.0.0'], {}),
      ).message,
    ).toMatch(/--allow-no-auth is refused on 0\.0\.0\.0/);
    expect(parseServerArgs(['--agent', 'a.ai', '--a2a', '0', '--allow-no-auth'], {}).a2a).toEqual({
      port: 0,
    });
    expect(failure(() => parseServerArgs(['--agent', 'a.ai', '--token', 't'], {})).message).toMatch(
      /no headend: give --api, --openai, --anthropic, --a2a/,
    );
    expect(() => parseServerArgs(['--agent', 'a.ai', '--a2a', '70000', '--token', 't'], {})).toThrow(
      /--a2a: a port is an integer 0-65535, not "70000"/,
    );
  });

  it('explains what is wrong in a2a: {...}: the key, the value and what is allowed', () => {
    const fail = (a2a: unknown) => failure(() => withA2a(a2a));
    expect(fail(8094).message).toMatch(/"a2a" must be an object \{ port, publicUrl\?, .*\}, not 8094/);
    expect(fail({}).message).toMatch(/"a2a\.port": a port is an integer 0-65535, not undefined/);
    expect(fail({ port: 1, url: 'x' })).toMatchObject({
      field: 'a2a.url',
      message: expect.stringMatching(
        /unknown key "a2a\.url" \(allowed: port, publicUrl, publicCard, legacy, maxTasks, provider\)/,
      ),
    });
    expect(fail({ port: 1, publicCard: 'yes' }).message).toMatch(
      /"a2a\.publicCard" must be true or false, not "yes"/,
    );
    expect(fail({ port: 1, legacy: 1 }).message).toMatch(/"a2a\.legacy" must be true or false, not 1/);
    for (const maxTasks of [0, -1, 1.5, '10', 2_000_000]) {
      expect(fail({ port: 1, maxTasks }).message).toMatch(
        /"a2a\.maxTasks" must be an integer from 1 to 1000000/,
      );
    }
    for (const publicUrl of ['agents.example.com', 'ftp://agents.example.com', 'https://a.example/?x=1', 7]) {
      expect(fail({ port: 1, publicUrl }).message).toMatch(
        /"a2a\.publicUrl" must be an absolute http\(s\) URL like https:\/\/agents\.example\.com/,
      );
    }
    expect(fail({ port: 1, provider: { organization: 'X' } }).message).toMatch(
      /"a2a\.provider\.url" must be/,
    );
    expect(fail({ port: 1, provider: { organization: '', url: 'https://x.example' } }).message).toMatch(
      /"a2a\.provider\.organization" must be the organization's name/,
    );
    expect(fail({ port: 1, provider: { name: 'X' } }).message).toMatch(
      /unknown key "a2a\.provider\.name" \(allowed: organization, url\)/,
    );
  });

  it('never echoes a public URL with credentials in it', () => {
    const error = failure(() => withA2a({ port: 1, publicUrl: 'https://user:s3cret@agents.example.com' }));
    expect(error.message).toMatch(/"a2a\.publicUrl" must be .* not a URL with credentials/);
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain('s3cret');
  });
});
