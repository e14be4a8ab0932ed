import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '@agent/protocol';
import { serve as honoServe } from '@hono/node-server';
import {
  applyConnectionLimits,
  type ConnectionLimits,
  httpServerOptions,
  resolveConnectionLimits,
} from './connection-limits.js';
import type { Headend } from './headend.js';

/** Where to listen, and the bounds on clients (`ConnectionLimits`: timeouts and a connection cap). */
export interface ServeOptions extends ConnectionLimits {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface ServedHeadend {
  url: string;
  port: number;
  /** Stops at once: aborts running sessions and closes every connection. */
  close(): Promise<void>;
  /**
   * Graceful stop: no new connections or sessions (503), running ones may finish until
   * `deadlineMs`, then they are aborted. Resolves when the server is closed.
   */
  drain(deadlineMs: number): Promise<{ aborted: number }>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Listens with a headend's app on `host:port`. */
export async function serve(headend: Headend, options: ServeOptions = {}): Promise<ServedHeadend> {
  const host = options.host ?? '127.0.0.1';
  if (!headend.authRequired && !isLoopbackHost(host)) {
    throw new ConfigError({
      field: 'host',
      value: host,
      allowed: 'a loopback host when serving without auth',
      message: `${headend.kind} headend: serving without auth is only allowed on loopback, not on ${host}`,
    });
  }
  const limits = resolveConnectionLimits(options);
  const server = await new Promise<Server>((resolve, reject) => {
    const created = honoServe(
      {
        fetch: headend.app.fetch,
        port: options.port ?? 0,
        hostname: host,
        serverOptions: httpServerOptions(limits),
      },
      () => resolve(created as Server),
    ) as Server;
    applyConnectionLimits(created, limits);
    created.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closed: Promise<void> | undefined;
  const closeServer = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    return closed;
  };
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    close: async () => {
      headend.admission.beginDrain();
      headend.admission.abortAll();
      const done = closeServer();
      await headend.dispose?.();
      server.closeAllConnections();
      await done;
    },
    drain: async (deadlineMs) => {
      headend.admission.beginDrain();
      const done = closeServer();
      const idleTimer = setInterval(() => server.closeIdleConnections(), 100);
      let aborted = 0;
      const timedOut = await Promise.race([
        headend.admission.idle().then(() => false),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(true), deadlineMs).unref()),
      ]);
      if (timedOut) {
        aborted = headend.admission.active;
        headend.admission.abortAll('server shutting down: drain deadline reached');
        await Promise.race([headend.admission.idle(), new Promise((r) => setTimeout(r, 2000).unref())]);
      }
      clearInterval(idleTimer);
      // Let finished responses flush, then drop what is left.
      await new Promise((r) => setTimeout(r, 50));
      await headend.dispose?.();
      server.closeAllConnections();
      await done;
      return { aborted };
    },
  };
}
