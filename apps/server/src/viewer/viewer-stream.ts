import type { IncomingMessage, ServerResponse } from 'node:http';
import { json, type Replied } from './http-reply.js';
import type { SessionSource } from './session-source.js';

export interface StreamLimits {
  /** SSE streams open at once (default 32); more are refused with 429. */
  maxStreams?: number;
}

/** Changes close together are sent as one update, at most this often. */
const COALESCE_MS = 150;

/**
 * `GET /api/stream[?session=<id>]`: Server-Sent Events. `list` (the session list) when any
 * session changes, and, with `session`, `session` (that session in full) when it changes.
 */
export function openStream(
  request: IncomingMessage,
  response: ServerResponse,
  options: StreamLimits & { source: SessionSource },
  streams: Set<ServerResponse>,
  url: URL,
): Replied {
  const max = options.maxStreams ?? 32;
  if (streams.size >= max) {
    return json(response, 429, { error: `too many live views open (at most ${max}): close one and retry` });
  }
  const watched = url.searchParams.get('session');
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    connection: 'keep-alive',
  });
  streams.add(response);
  const { source } = options;
  // Updates are read (the list may come from disk) and written one after another, in order.
  let writing: Promise<void> = Promise.resolve();
  const push = (listChanged: boolean, sessionChanged: boolean) => {
    writing = writing.then(async () => {
      try {
        if (listChanged) {
          const list = await source.list();
          response.write(`event: list\ndata: ${JSON.stringify(list)}\n\n`);
        }
        const view = watched === null || !sessionChanged ? undefined : await source.get(watched);
        if (view !== undefined) response.write(`event: session\ndata: ${JSON.stringify(view)}\n\n`);
      } catch {
        // The next change sends a fresh update.
      }
    });
  };
  push(true, true);
  let timer: NodeJS.Timeout | undefined;
  let sessionDirty = false;
  const unsubscribe = source.subscribe((id) => {
    if (id === watched) sessionDirty = true;
    timer ??= setTimeout(() => {
      timer = undefined;
      const dirty = sessionDirty;
      sessionDirty = false;
      push(true, dirty);
    }, COALESCE_MS);
  });
  const ping = setInterval(() => response.write(': ping\n\n'), 15_000);
  const close = () => {
    unsubscribe();
    clearInterval(ping);
    if (timer !== undefined) clearTimeout(timer);
    streams.delete(response);
  };
  request.on('close', close);
  response.on('close', close);
  return true;
}
