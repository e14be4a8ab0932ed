import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileTokenStore } from '@agent/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the @agent/mcp tests' plain JS fixture (a loopback OAuth server + MCP server)
import { startOAuthMcpServer } from '../../../../packages/mcp/test/fixtures/oauth-mcp-server.mjs';
import { runCli, spawnCli, waitFor } from './helpers.js';

interface Fixture {
  url: string;
  stats: { refresh_token: number; authorizations: number };
  expireAccessTokens(): void;
  revokeRefreshTokens(): void;
  close(): Promise<void>;
}

let fixture: Fixture;
let dir: string;
let env: Record<string, string>;
let store: FileTokenStore;

beforeAll(async () => {
  fixture = (await startOAuthMcpServer()) as Fixture;
  dir = mkdtempSync(join(tmpdir(), 'cli-mcp-login-'));
  writeFileSync(join(dir, 'agent.json'), JSON.stringify({ mcpServers: { remote: { url: fixture.url } } }));
  env = { XDG_STATE_HOME: join(dir, 'state'), XDG_CONFIG_HOME: join(dir, 'config'), DISPLAY: '' };
  store = new FileTokenStore(join(dir, 'state', 'agent', 'mcp-auth'));
});

afterAll(async () => {
  await fixture?.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { cwd: dir, env });

describe('agent mcp login | list | logout against a loopback OAuth server', () => {
  it('list says a server that needs authorization is not logged in and what to run', async () => {
    const listed = await cli(['mcp', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('remote  http  auth: not logged in  unavailable');
    expect(listed.stdout).toContain('run `agent mcp login remote`');
  });

  it('login prints the URL (no browser), takes the redirect on the loopback and stores the tokens 0600', async () => {
    const { child, done } = spawnCli(['mcp', 'login', 'remote'], { cwd: dir, env });
    let stderr = '';
    child.stderr?.on('data', (chunk: string) => (stderr += chunk));
    await waitFor(() => /https?:\/\/\S+authorize\S*/.test(stderr));
    expect(stderr).toContain('Open this URL in a browser to log in:');
    const url = /(https?:\/\/\S+authorize\S*)/.exec(stderr)?.[1] as string;
    // What the browser does: the authorization server approves and redirects to the loopback.
    const approval = await fetch(url, { redirect: 'manual' });
    const back = approval.headers.get('location') as string;
    expect(back).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
    expect(await (await fetch(back)).text()).toContain('Logged in');
    const ended = await done;
    expect(ended.code).toBe(0);
    expect(ended.stdout).toBe('Logged in to remote (1 tool).\n');
    const file = store.fileOf('remote');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token = (await store.load('remote'))?.tokens?.access_token as string;
    expect(token.length).toBeGreaterThan(10);
    expect(ended.stdout + ended.stderr).not.toContain(token);

    const listed = await cli(['mcp', 'list']);
    expect(listed.stdout).toBe(`remote  http  auth: logged in  1 tool\n`);
  });

  it('an expired token is refreshed when the server is used, without a new login', async () => {
    const before = { ...fixture.stats };
    fixture.expireAccessTokens();
    const file = store.fileOf('remote');
    writeFileSync(
      file,
      JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), expiresAt: Date.now() - 1000 }),
    );
    const listed = await cli(['mcp', 'list']);
    expect(listed.stdout).toBe(`remote  http  auth: expired, refreshable  1 tool\n`);
    expect(fixture.stats.refresh_token).toBe(before.refresh_token + 1);
    expect(fixture.stats.authorizations).toBe(before.authorizations);
    expect((await cli(['mcp', 'list'])).stdout).toBe(`remote  http  auth: logged in  1 tool\n`);
  });

  it('when the refresh fails too, the failure says to run agent mcp login', async () => {
    fixture.expireAccessTokens();
    fixture.revokeRefreshTokens();
    const listed = await cli(['mcp', 'list', '--json']);
    const [remote] = JSON.parse(listed.stdout) as { tools: number | null; problem?: string }[];
    expect(remote?.tools).toBeNull();
    expect(remote?.problem).toContain('requires authorization');
    expect(remote?.problem).toContain('run `agent mcp login remote`');
  });

  it('logout forgets the tokens; an unknown server is a configuration error', async () => {
    const out = await cli(['mcp', 'logout', 'remote']);
    expect(out).toMatchObject({ code: 0, stdout: 'Logged out of remote.\n' });
    expect(existsSync(store.fileOf('remote'))).toBe(false);
    const unknown = await cli(['mcp', 'login', 'nope']);
    expect(unknown.code).toBe(7);
    expect(unknown.stderr).toContain('no MCP server "nope" in the config (servers: remote)');
  });
});
