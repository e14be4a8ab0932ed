import { connect } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { type RedisServer, startRedisServer } from '../src/index.js';

const started: RedisServer[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.close();
});

/** Sends raw RESP commands and returns the server's reply text (or the socket error's code). */
function send(port: number, commands: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      if (reply.endsWith('\r\n')) socket.end();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.on('close', () => resolve(reply));
    socket.write(commands);
  });
}

test('starts a real redis-server on a free loopback port and stops it', async () => {
  const server = await startRedisServer();
  started.push(server);
  expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
  expect(await send(server.port, 'SET greeting hello\r\nGET greeting\r\n')).toBe('+OK\r\n$5\r\nhello\r\n');
  await server.close();
  expect(await send(server.port, 'PING\r\n')).toBe('ECONNREFUSED');
  await server.close(); // idempotent
});

test('two servers at once get different ports; a password is required when set', async () => {
  const [open, locked] = await Promise.all([startRedisServer(), startRedisServer({ password: 's3cr3t/pw' })]);
  started.push(open, locked);
  expect(open.port).not.toBe(locked.port);
  expect(locked.url).toBe(`redis://:s3cr3t%2Fpw@127.0.0.1:${locked.port}`);
  expect(await send(locked.port, 'PING\r\n')).toMatch(/^-NOAUTH/);
  expect(await send(locked.port, 'AUTH s3cr3t/pw\r\nPING\r\n')).toBe('+OK\r\n+PONG\r\n');
});

test('with appendOnly, a stopped server restarts on its port with its data; without, the data is gone', async () => {
  const [kept, plain] = await Promise.all([startRedisServer({ appendOnly: true }), startRedisServer()]);
  started.push(kept, plain);
  for (const server of [kept, plain]) {
    expect(await send(server.port, 'SET greeting hello\r\n')).toBe('+OK\r\n');
    await server.stop();
    expect(await send(server.port, 'PING\r\n')).toBe('ECONNREFUSED');
    await server.restart();
  }
  expect(await send(kept.port, 'GET greeting\r\n')).toBe('$5\r\nhello\r\n');
  expect(await send(plain.port, 'GET greeting\r\n')).toBe('$-1\r\n');
  await kept.close();
  await expect(kept.restart()).rejects.toThrow('redis-server was closed: it cannot restart');
});

test('a missing binary is a clear error', async () => {
  await expect(startRedisServer({ binary: '/nonexistent/redis-server' })).rejects.toMatchObject({
    code: 'redis_server_unavailable',
    message: 'redis-server is not installed (Debian: apt-get install -y redis-server)',
  });
});
