import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FileTokenStore,
  loginMcpServer,
  type McpLogEntry,
  type McpServerConfig,
  McpToolProvider,
  mcpAuthState,
  ToolQueues,
} from '../src/index.js';
// @ts-expect-error: a plain JS fixture without types
import { startOAuthMcpServer } from './fixtures/oauth-mcp-server.mjs';
import { tempDir } from './helpers.js';

interface Fixture {
  url: string;
  stats: { authorization_code: number; refresh_token: number; authorizations: number; tokensSeen: string[] };
  expireAccessTokens(): void;
  revokeRefreshTokens(): void;
  close(): Promise<void>;
}

/** What a browser does with the authorization URL: follow the redirect back to the loopback. */
async function browser(url: URL): Promise<void> {
  const approval = await fetch(url, { redirect: 'manual' });
  const back = approval.headers.get('location');
  if (back === null) throw new Error(`no redirect from the authorization server (${approval.status})`);
  const landed = await fetch(back);
  expect(await landed.text()).toContain('Logged in');
}

let fixture: Fixture;
const dir = tempDir('mcp-oauth-');
let config: McpServerConfig;
const store = new FileTokenStore(`${dir.path}/mcp-auth`);

beforeAll(async () => {
  fixture = (await startOAuthMcpServer()) as Fixture;
  config = { type: 'http', url: fixture.url };
});
afterAll(async () => {
  await fixture.close();
  dir.remove();
});

async function runWhoami(logs: McpLogEntry[] = []) {
  const provider = new McpToolProvider('remote', config, {
    queues: new ToolQueues(),
    backoff: { initialMs: 0, maxMs: 0 },
    auth: { store },
    onLog: (entry) => logs.push(entry),
  });
  try {
    return await provider.execute(
      { name: 'remote__whoami', arguments: {}, callId: 'c1' },
      { signal: new AbortController().signal },
    );
  } finally {
    await provider.close();
  }
}

describe('OAuth login, run, refresh and expiry against a loopback authorization server', () => {
  it('a run before any login fails and says to run agent mcp login', async () => {
    expect(await mcpAuthState('remote', config, store)).toBe('not logged in');
    const result = await runWhoami();
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).toContain('run `agent mcp login remote`');
  });

  it('login drives the redirect to the loopback, stores the tokens 0600 and lists the tools', async () => {
    const shown: URL[] = [];
    const { tools } = await loginMcpServer('remote', config, {
      store,
      onAuthorizationUrl: async (url) => {
        shown.push(url);
        await browser(url);
      },
    });
    expect(tools).toBe(1);
    expect(shown).toHaveLength(1);
    expect(shown[0]?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(shown[0]?.searchParams.get('resource')).toBe(fixture.url);
    expect(shown[0]?.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(statSync(store.fileOf('remote')).mode & 0o777).toBe(0o600);
    expect(await mcpAuthState('remote', config, store)).toBe('logged in');
  });

  it('a run uses the stored token, which never appears in its logs', async () => {
    const logs: McpLogEntry[] = [];
    const result = await runWhoami(logs);
    expect(result).toMatchObject({ ok: true });
    expect(JSON.stringify(result)).toContain('hello');
    const token = (await store.load('remote'))?.tokens?.access_token as string;
    expect(fixture.stats.tokensSeen).toContain(token);
    expect(JSON.stringify(logs)).not.toContain(token);
  });

  it('an expired access token is refreshed on the run, without a new login', async () => {
    const before = { ...fixture.stats };
    const old = (await store.load('remote'))?.tokens?.access_token;
    fixture.expireAccessTokens();
    // The client's own clock says so too (as after an hour).
    const file = store.fileOf('remote');
    writeFileSync(
      file,
      JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), expiresAt: Date.now() - 1000 }),
    );
    expect(await mcpAuthState('remote', config, store)).toBe('expired, refreshable');
    const result = await runWhoami();
    expect(result).toMatchObject({ ok: true });
    expect(fixture.stats.refresh_token).toBe(before.refresh_token + 1);
    expect(fixture.stats.authorizations).toBe(before.authorizations);
    expect((await store.load('remote'))?.tokens?.access_token).not.toBe(old);
    expect(await mcpAuthState('remote', config, store)).toBe('logged in');
  });

  it('when the refresh fails too, the run fails and says to log in again', async () => {
    fixture.expireAccessTokens();
    fixture.revokeRefreshTokens();
    const result = await runWhoami();
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).toContain('requires authorization');
    expect(JSON.stringify(result)).toContain('run `agent mcp login remote`');
  });
});
