import { connect, type Socket } from 'node:net';

/** What a raw TCP client saw: the bytes it got, and when the server closed (undefined: it never did). */
export interface RawExchange {
  received: string;
  closedAfterMs: number | undefined;
}

/**
 * Connects to `port`, writes `head` at once, then `drip` one byte every `gapMs`, until the server
 * closes the connection or `maxMs` passes (then the client gives up and closes it itself).
 */
export function dripRequest(
  port: number,
  options: { head: string; drip: string; gapMs: number; maxMs: number },
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let received = '';
    let start = 0;
    let dripTimer: ReturnType<typeof setInterval> | undefined;
    let giveUp: ReturnType<typeof setTimeout> | undefined;
    let gaveUp = false;
    socket.on('connect', () => {
      start = performance.now();
      socket.write(options.head);
      let next = 0;
      dripTimer = setInterval(() => {
        if (next < options.drip.length && socket.writable) socket.write(options.drip[next++]!);
      }, options.gapMs);
      giveUp = setTimeout(() => {
        gaveUp = true;
        socket.destroy();
      }, options.maxMs);
    });
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(dripTimer);
      clearTimeout(giveUp);
      resolve({ received, closedAfterMs: gaveUp ? undefined : performance.now() - start });
    });
  });
}

/** Sends one whole request and reads until the server closes (or `maxMs` passes). */
export function rawRequest(port: number, request: string, maxMs = 5000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.write(request));
    let received = '';
    const giveUp = setTimeout(() => socket.destroy(), maxMs);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve(received);
    });
  });
}

/** A keep-alive connection that has had one answered request: the server has surely accepted it. */
export function heldConnection(port: number, request: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.write(request));
    socket.once('data', () => resolve(socket));
    socket.on('error', reject);
    socket.once('close', () => reject(new Error('the server closed a connection it should hold')));
  });
}
