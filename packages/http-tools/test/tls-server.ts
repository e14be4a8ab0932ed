// A loopback https server with a self-signed certificate made at test time by the openssl CLI
// (node:crypto cannot make X.509 certificates), in a temp directory removed at once.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TlsServer {
  url: string;
  host: string;
  /** Until `close`, this process's fetch trusts the server's certificate (and only the usual CAs besides). */
  close(): Promise<void>;
}

const DISPATCHER = Symbol.for('undici.globalDispatcher.1');
type Dispatcher = { constructor: new (options: object) => unknown; close?: () => Promise<void> };

/**
 * Makes the global fetch trust `ca` too: a dispatcher of fetch's own Agent class with that CA
 * (Node 20 has no API to add a CA after start, and turning verification off would test less).
 */
async function trustCertificate(ca: Buffer): Promise<() => Promise<void>> {
  const holder = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  if (holder[DISPATCHER] === undefined) await fetch('data:,');
  const previous = holder[DISPATCHER];
  if (previous === undefined) throw new Error("fetch's dispatcher was not found");
  const trusting = new previous.constructor({ connect: { ca } }) as Dispatcher;
  holder[DISPATCHER] = trusting;
  return async () => {
    holder[DISPATCHER] = previous;
    await trusting.close?.();
  };
}

function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'http-tools-tls-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1'].concat([
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ]),
      { stdio: 'ignore', timeout: 20_000 },
    );
    return { key: readFileSync(key), cert: readFileSync(cert) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startTlsServer(handler: RequestListener): Promise<TlsServer> {
  const credentials = selfSignedCertificate();
  const server: Server = createServer(credentials, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const untrust = await trustCertificate(credentials.cert);
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    close: async () => {
      await untrust();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
