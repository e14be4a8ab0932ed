import { createServer } from 'node:net';
import { createModelClient } from '@agent/providers';
import { type ModelServer, startModelServer } from '@agent/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { runAgent } from '../../src/index.js';

// Failures through the official openai client over real loopback HTTP.
const API_KEY = 'sk-test-secret-key-0123456789';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A loopback port nobody listens on: bound once by us, then released. */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function openai(baseURL: string, model: string) {
  return createModelClient({ type: 'openai', provider: 'openai', model, apiKey: API_KEY, baseURL });
}

describe('a dead server', () => {
  test('attempts on the same target are spaced by a growing backoff, and the error names the cause', async () => {
    const port = await deadPort();
    const attempts: number[] = [];
    const started = Date.now();
    const result = await runAgent({
      nonce: 'e2e0e2e0',
      maxTurns: 2,
      retryBackoff: { baseMs: 100, maxMs: 400 },
      targets: [{ client: openai(`http://127.0.0.1:${port}/v1`, 'gpt-test') }],
      userPrompt: 'hello',
      callbacks: { onEvent: (event) => void (event.type === 'turn_started' && attempts.push(Date.now())) },
    });
    expect(result.exitCode).toBe('EXIT-NO-LLM-RESPONSE');
    expect(attempts).toHaveLength(6);
    const gaps = attempts.slice(1).map((at, index) => at - attempts[index]!);
    // Half-jittered exponential backoff: at least half of min(max, base * 2^(n-1)) before retry n.
    const floors = [50, 100, 200, 200, 200];
    for (const [index, gap] of gaps.entries()) expect(gap).toBeGreaterThanOrEqual(floors[index]! - 5);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.error).toContain('no model answered');
    expect(result.error).toContain('openai/gpt-test');
    expect(result.error).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
  });
});

describe('the provider words in the result error', () => {
  test('an unknown model on every target: the error quotes what each provider said, and no key', async () => {
    server = await startModelServer({
      steps: [
        { error: { kind: 'model_not_found', message: 'The model `gpt-9000` does not exist' } },
        {
          error: {
            kind: 'auth',
            message: `Incorrect API key provided: ${API_KEY}. You can find your API key in your account.`,
          },
        },
      ],
    });
    const result = await runAgent({
      nonce: 'e2e0e2e0',
      targets: [
        { client: openai(`${server.url}/v1`, 'gpt-9000') },
        { client: openai(`${server.url}/v1`, 'gpt-backup') },
      ],
      userPrompt: 'hello',
    });
    expect(result.success).toBe(false);
    expect(result.exitCode).toBe('EXIT-AUTH-FAILURE');
    expect(result.error).toContain('openai/gpt-9000');
    expect(result.error).toContain('The model `gpt-9000` does not exist');
    expect(result.error).toContain('openai/gpt-backup');
    expect(result.error).toContain('Incorrect API key provided');
    expect(result.error).not.toContain(API_KEY);
    expect(JSON.stringify(result)).not.toContain(API_KEY);
  });
});
