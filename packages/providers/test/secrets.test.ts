// The API key (and secret header values) never show in errors or in what the server recorded.
import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { type ModelServer, startModelServer } from '@agent/testkit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelClient, redactSecrets } from '../src/index.js';
import { collectSecrets } from '../src/redact.js';
import { API_KEY, clientFor, collectError, WIRE_TYPES } from './helpers.js';

const HEADER_SECRET = 'tok-header-secret-98765';
const request = { messages: [{ role: 'user' as const, content: 'hello' }] };

/** Everything a log line or a crash report could show of an error. */
function everything(error: Error & { providerMessage?: string; cause?: unknown }): string {
  return [
    error.message,
    error.providerMessage,
    error.stack,
    String(error.cause),
    (error.cause as Error | undefined)?.stack,
    JSON.stringify(error),
    inspect(error, { depth: 6 }),
  ].join('\n');
}

describe.each(WIRE_TYPES)('%s', (type) => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer({ strict: true });
  });
  afterAll(() => server.close());

  it('redacts the key and secret headers a provider echoes in its error', async () => {
    server.push({
      error: {
        kind: 'auth',
        message: `Incorrect API key provided: ${API_KEY}. Sent X-Custom-Token: ${HEADER_SECRET}, Authorization: Bearer ${API_KEY}`,
      },
    });
    const client = clientFor(server, type, { headers: { 'X-Custom-Token': HEADER_SECRET } });
    const { error } = await collectError(client.stream(request));
    expect(error.kind).toBe('auth');
    const shown = everything(error);
    expect(shown).not.toContain(API_KEY);
    expect(shown).not.toContain(HEADER_SECRET);
    expect(error.providerMessage).toContain('Incorrect API key provided: [REDACTED]');
  });

  it('never puts the key in a request body, and the recorded headers hold it redacted', async () => {
    server.push({ text: 'ok' });
    const before = server.requests.length;
    const client = clientFor(server, type);
    for await (const _ of client.stream(request)) {
      // drain
    }
    const recorded = server.requests[before];
    expect(JSON.stringify(recorded)).not.toContain(API_KEY);
    expect(recorded?.headers?.authorization).toBe('[redacted]');
  });
});

describe('network failures', () => {
  it('a refused connection is a retryable network error that shows no credentials', async () => {
    const port = await closedPort();
    const client = createModelClient({
      type: 'openai-compatible',
      provider: 'local',
      model: 'llama3',
      apiKey: API_KEY,
      baseURL: `http://user:hunter2-password@127.0.0.1:${port}/v1`,
    });
    const { error } = await collectError(client.stream(request));
    expect(error.kind).toBe('network');
    expect(error.retryable).toBe(true);
    const shown = everything(error);
    expect(shown).not.toContain(API_KEY);
    expect(shown).not.toContain('hunter2-password');
  });
});

describe('redactSecrets', () => {
  it('removes given secrets and credential-shaped text', () => {
    const text = [
      'key sk-proj-abcdefghijklmnop was rejected',
      'Authorization: Bearer abc.def-ghi',
      '"x-api-key": "sk-ant-api03-XYZXYZXYZ"',
      'GET https://example.com/v1/models?key=AIzaSecret&alt=json',
      'my-own-secret-value appears here',
      'http://alice:s3cret@proxy.local:8080',
    ].join('\n');
    const out = redactSecrets(text, ['my-own-secret-value']);
    for (const secret of [
      'abcdefghijklmnop',
      'abc.def-ghi',
      'XYZXYZXYZ',
      'AIzaSecret',
      'my-own-secret-value',
      's3cret',
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('alt=json');
    expect(out).toContain('proxy.local:8080');
  });

  it('never leaves a given secret in any text (property)', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/);
    fc.assert(
      fc.property(secret, fc.string(), fc.string(), fc.string(), (s, a, b, c) => {
        const out = redactSecrets(`${a}${s}${b}${s}${c}`, [s]);
        return !out.includes(s);
      }),
    );
  });

  it('redacts credential shapes in any text as when every pattern is applied (property)', () => {
    // A leading "@" sends a text through every pattern (it can start no match), so the quick
    // skip of texts without a credential shape must give what the full scans give.
    const piece = fc.constantFrom(
      'Bearer tok.abc',
      'basic dXNlcjpwYXNz',
      'X-API-KEY: abc123',
      'authorization=secret',
      'sk-proj-abcdefgh',
      'rk-12345678',
      '?token=abc',
      '&api_key=xyz',
      'https://u:p@host',
      ' ',
      '\n',
      '"',
      'word',
    );
    const text = fc.array(fc.oneof(piece, fc.string()), { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (t) => {
        expect(redactSecrets(t)).toBe(redactSecrets(`@${t}`).slice(1));
      }),
    );
  });

  it('collects the key and the values of auth-like headers, bare and with their scheme', () => {
    const secrets = collectSecrets({
      apiKey: 'k-123456',
      headers: { Authorization: 'Bearer tok-abcdef', 'X-Title': 'my app', 'api-key': 'azure-key-1' },
    });
    expect(secrets).toEqual(
      expect.arrayContaining(['k-123456', 'Bearer tok-abcdef', 'tok-abcdef', 'azure-key-1']),
    );
    expect(secrets).not.toContain('my app');
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
