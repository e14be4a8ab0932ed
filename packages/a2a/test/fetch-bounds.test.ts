import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { fetchWith } from '../src/fetch.js';

let server: Server | undefined;
let seenTeam: string | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A server that streams `chunks` chunks of 64 KiB, as a hostile remote agent might, forever-ish. */
async function streamingServer(chunks: number): Promise<string> {
  server = createServer((req, res) => {
    seenTeam = req.headers['x-team'] as string | undefined;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let sent = 0;
    const push = (): void => {
      while (sent < chunks) {
        sent++;
        if (!res.write(Buffer.alloc(64 * 1024, 'a'))) return void res.once('drain', push);
      }
      res.end();
    };
    push();
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/`;
}

it('a response past the byte bound errors instead of filling memory', async () => {
  const url = await streamingServer(64); // 4 MiB
  const bounded = fetchWith(fetch, undefined, 10_000, 1024 * 1024);
  const response = await bounded(url);
  await expect(response.text()).rejects.toThrow(/passed 1048576 bytes/);
});

it('a response within the bound arrives whole, with the entry headers sent', async () => {
  const url = await streamingServer(4); // 256 KiB
  const bounded = fetchWith(fetch, { 'x-team': 'blue' }, 10_000, 1024 * 1024);
  const response = await bounded(url);
  expect((await response.text()).length).toBe(4 * 64 * 1024);
  expect(seenTeam).toBe('blue');
});
