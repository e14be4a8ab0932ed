// After the terminal event the answer is complete: a server that then keeps the stream open
// does not turn it into a timeout (the rest is read briefly, then the request is cut).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelClient, type ProviderType } from '../src/index.js';
import { API_KEY, collect, FIXTURES_DIR } from './helpers.js';

const recordings: Record<string, string> = {
  '/v1/messages': 'anthropic/anthropic-text.chunks.txt',
  '/v1/responses': 'openai-responses/azure-text.1.chunks.txt',
};

let server: Server;
let url = '';
let closedByClient = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    const file = recordings[req.url ?? ''];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const line of readFileSync(join(FIXTURES_DIR, file), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const type = (JSON.parse(line) as { type: string }).type;
      res.write(`event: ${type}\ndata: ${line}\n\n`);
    }
    // ...and never end the response.
    res.on('close', () => {
      closedByClient++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe.each([
  ['anthropic', 'Hello! I', 'end_turn'],
  ['openai-responses', 'Hello', 'completed'],
] as const)('%s', (type: ProviderType, text, raw) => {
  it('a complete answer on a stream left open finishes, and the request is released', async () => {
    const closedBefore = closedByClient;
    const client = createModelClient({
      type,
      provider: type,
      model: 'm',
      apiKey: API_KEY,
      baseURL: type === 'anthropic' ? url : `${url}/v1`,
      timeoutMs: 10_000,
    });
    const started = Date.now();
    const result = await collect(client.stream({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(result.text.startsWith(text)).toBe(true);
    expect(result.finish?.rawStopReason).toBe(raw);
    expect(Date.now() - started).toBeLessThan(3000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closedByClient).toBe(closedBefore + 1);
  });
});
