import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';

/** The Node response of a request served by `@hono/node-server` (`serve`), if that is how it came. */
export function nodeResponse(c: Context): ServerResponse | undefined {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  return typeof outgoing === 'object' && outgoing !== null && 'writeHead' in outgoing
    ? (outgoing as ServerResponse)
    : undefined;
}

/**
 * Calls `listener` once if the client goes away before `outgoing` is finished (at once if it
 * already has): what the request's `signal` tells on `@hono/node-server`, without building it.
 */
export function onClientGone(outgoing: ServerResponse, listener: () => void): void {
  if (outgoing.closed) {
    if (!outgoing.writableFinished) listener();
    return;
  }
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) listener();
  });
}
