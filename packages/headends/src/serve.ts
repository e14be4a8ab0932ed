import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '@agent/protocol';
import { serve as honoServe } from '@hono/node-server';
import type { Admission } from './admission.js';
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
  const server = await listen(headend, options.port ?? 0, host, resolveConnectionLimits(options));
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const closeServer = closeOnce(server);
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    close: () => closeNow(headend, server, closeServer),
    drain: (deadlineMs) => drainThenClose(headend, server, closeServer, deadlineMs),
  };
}

/** A listening HTTP server for the headend's app, its connections bounded by `limits`. */
function listen(
  headend: Headend,
  port: number,
  host: string,
  limits: Required<ConnectionLimits>,
): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const created = honoServe(
      {
        fetch: headend.app.fetch,
        port,
        hostname: host,
        serverOptions: httpServerOptions(limits),
      },
      () => resolve(created as Server),
    ) as Server;
    applyConnectionLimits(created, limits);
    created.once('error', reject);
  });
}

/** Stops `server` taking connections; every call gets the one promise of it being closed. */
function closeOnce(server: Server): () => Promise<void> {
  let closed: Promise<void> | undefined;
  return () => {
    closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    return closed;
  };
}

/** `ServedHeadend.close`: aborts the running sessions and drops every connection. */
async function closeNow(headend: Headend, server: Server, closeServer: () => Promise<void>): Promise<void> {
  headend.admission.beginDrain();
  headend.admission.abortAll();
  const done = closeServer();
  await headend.dispose?.();
  server.closeAllConnections();
  await done;
}

/** `ServedHeadend.drain`: running sessions may finish until the deadline, then are aborted. */
async function drainThenClose(
  headend: Headend,
  server: Server,
  closeServer: () => Promise<void>,
  deadlineMs: number,
): Promise<{ aborted: number }> {
  headend.admission.beginDrain();
  const done = closeServer();
  const idleTimer = setInterval(() => server.closeIdleConnections(), 100);
  const aborted = await abortAfterDeadline(headend.admission, deadlineMs);
  clearInterval(idleTimer);
  // Let finished responses flush, then drop what is left.
  await new Promise((r) => setTimeout(r, 50));
  await headend.dispose?.();
  server.closeAllConnections();
  await done;
  return { aborted };
}

/**
 * Waits for the sessions to end, at most `deadlineMs`; then aborts those still running and
 * gives them 2 s to wind down. Resolves with how many were aborted.
 */
async function abortAfterDeadline(admission: Admission, deadlineMs: number): Promise<number> {
  const timedOut = await Promise.race([
    admission.idle().then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), deadlineMs).unref()),
  ]);
  if (!timedOut) return 0;
  const aborted = admission.active;
  admission.abortAll('server shutting down: drain deadline reached');
  await Promise.race([admission.idle(), new Promise((r) => setTimeout(r, 2000).unref())]);
  return aborted;
}
