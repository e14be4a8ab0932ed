import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AgentError } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { FileTokenStore, McpOAuthProvider, validateServerConfig } from '../src/index.js';
import { tempDir } from './helpers.js';

describe('FileTokenStore', () => {
  it('keeps each server in its own file with mode 0600 inside a 0700 directory', async () => {
    const dir = tempDir('mcp-tokens-');
    try {
      const store = new FileTokenStore(join(dir.path, 'mcp-auth'));
      const tokens = { access_token: 'secret-access', token_type: 'Bearer', refresh_token: 'secret-refresh' };
      await store.save('remote', { url: 'https://mcp.example/mcp', tokens });
      await store.save('../escape', { url: 'https://other.example/mcp' });
      expect(statSync(store.fileOf('remote')).mode & 0o777).toBe(0o600);
      expect(statSync(store.dir).mode & 0o777).toBe(0o700);
      expect(store.fileOf('../escape').startsWith(`${store.dir}/`)).toBe(true);
      expect((await store.load('remote'))?.tokens).toEqual(tokens);
      expect((await store.load('../escape'))?.url).toBe('https://other.example/mcp');
      expect(await store.load('unknown')).toBeUndefined();
      await store.remove('remote');
      expect(await store.load('remote')).toBeUndefined();
    } finally {
      dir.remove();
    }
  });

  it('does not hand tokens issued for another URL to a server whose URL changed', async () => {
    const dir = tempDir('mcp-tokens-');
    try {
      const store = new FileTokenStore(dir.path);
      await store.save('remote', {
        url: 'https://old.example/mcp',
        tokens: { access_token: 'old-token', token_type: 'Bearer' },
      });
      const provider = new McpOAuthProvider('remote', 'https://new.example/mcp', {}, { store });
      expect(await provider.tokens()).toBeUndefined();
      await provider.saveTokens({ access_token: 'new-token', token_type: 'Bearer', expires_in: 60 });
      const saved = JSON.parse(readFileSync(store.fileOf('remote'), 'utf8'));
      expect(saved.url).toBe('https://new.example/mcp');
      expect(saved.expiresAt).toBeGreaterThan(Date.now());
    } finally {
      dir.remove();
    }
  });

  it('a run without a way to approve fails with the login command to run', async () => {
    const dir = tempDir('mcp-tokens-');
    try {
      const provider = new McpOAuthProvider(
        'remote',
        'https://mcp.example/mcp',
        {},
        {
          store: new FileTokenStore(dir.path),
        },
      );
      await expect(provider.redirectToAuthorization(new URL('https://as.example/authorize'))).rejects.toThrow(
        'MCP server "remote" requires authorization and it has no token: run `agent mcp login remote`',
      );
    } finally {
      dir.remove();
    }
  });
});

describe('oauth in a server entry', () => {
  const entry = (oauth: unknown) => ({ type: 'http', url: 'https://mcp.example/mcp', oauth });

  it('accepts a pre-registered client and names what is wrong otherwise, never echoing the secret', () => {
    expect(() =>
      validateServerConfig(
        'remote',
        entry({ clientId: 'id', clientSecret: 's', tokenEndpointAuthMethod: 'client_secret_post' }),
      ),
    ).not.toThrow();
    expect(() =>
      validateServerConfig('remote', entry({ tokenEndpointAuthMethod: 'private_key_jwt' })),
    ).toThrow(/client_secret_basic, client_secret_post, none/);
    expect(() => validateServerConfig('remote', entry({ clientSecret: 42 }))).toThrow(/oauth.clientSecret/);
    expect(() =>
      validateServerConfig('remote', entry({ clientMetadataUrl: 'http://x.example/c.json' })),
    ).toThrow(/https URL with a path/);
    expect(() => validateServerConfig('remote', entry({ scopes: 'a' }))).toThrow(/oauth.scopes/);
    let message = '';
    try {
      validateServerConfig(
        'remote',
        entry({ grant: 'client_credentials', clientId: 'id', clientSecret: 'hunter2' }),
      );
    } catch (error) {
      message = String(error) + JSON.stringify(error);
    }
    expect(message).toContain('clientId, clientSecret and issuer');
    expect(message).not.toContain('hunter2');
  });
});

describe('McpOAuthProvider', () => {
  it('asked for a PKCE verifier it never saved: an AgentError (mcp_unavailable) saying so', async () => {
    const dir = tempDir('mcp-tokens-');
    try {
      const provider = new McpOAuthProvider(
        'remote',
        'https://mcp.example/mcp',
        {},
        { store: new FileTokenStore(dir.path) },
      );
      let failed: unknown;
      try {
        provider.codeVerifier();
      } catch (error) {
        failed = error;
      }
      expect(AgentError.is(failed, 'mcp_unavailable')).toBe(true);
      expect((failed as Error).message).toBe('no PKCE code verifier was saved for this authorization');
      provider.saveCodeVerifier('v1');
      expect(provider.codeVerifier()).toBe('v1');
    } finally {
      dir.remove();
    }
  });
});
