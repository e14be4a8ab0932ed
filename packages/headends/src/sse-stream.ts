import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { HeadendError } from './headend-error.js';
import { nodeResponse, onClientGone } from './node-response.js';

/** One server-sent event. */
export interface SseMessage {
  data: string;
  event?: string;
}

/** Where a headend writes its events. */
export interface SseStream {
  /**
   * Hands the event to the connection: nothing returned when done at once, else a promise that
   * resolves when it is (after a `drain` when the connection's buffer is full).
   */
  writeSSE(message: SseMessage): Promise<void> | undefined;
  /**
   * `writeSSE({ data: line })` for a line known to hold no "\r" or "\n" (a JSON text never
   * does): written without looking for line breaks.
   */
  writeData(line: string): Promise<void> | undefined;
  /** Called once when the client goes away before the stream ended. */
  onAbort(listener: () => void): void;
}

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache',
  Connection: 'keep-alive',
} as const;

/** An event in the wire format: `event:` line, one `data:` line per line of the data, blank line. */
export function sseFrame(message: SseMessage): string {
  if (message.event !== undefined && /[\r\n]/.test(message.event))
    throw new HeadendError('invalid_sse_event', 'an SSE event name must not contain "\\r" or "\\n"');
  const data = /[\r\n]/.test(message.data)
    ? message.data
        .split(/\r\n|\r|\n/)
        .map((line) => `data: ${line}`)
        .join('\n')
    : `data: ${message.data}`;
  return message.event ? `event: ${message.event}\n${data}\n\n` : `${data}\n\n`;
}

function writeTo(outgoing: ServerResponse, headers: Readonly<Record<string, string>>): SseStream {
  outgoing.writeHead(200, { ...SSE_HEADERS, ...headers });
  const write = (frame: string): Promise<void> | undefined => {
    if (outgoing.destroyed || outgoing.write(frame)) return undefined;
    return new Promise((resolve) => {
      const done = () => {
        outgoing.off('drain', done);
        outgoing.off('close', done);
        resolve();
      };
      outgoing.on('drain', done);
      outgoing.on('close', done);
    });
  };
  return {
    writeSSE: (message) => write(sseFrame(message)),
    writeData: (line) => write(`data: ${line}\n\n`),
    onAbort(listener) {
      onClientGone(outgoing, listener);
    },
  };
}

/**
 * Streams server-sent events from `run`, with `headers` besides the SSE ones. Served by `serve`
 * (Node), the events are written straight to the Node response, each as one write; elsewhere
 * (`app.request`, other runtimes) through Hono's `streamSSE`. The stream ends when `run` settles.
 */
export function streamEvents(
  c: Context,
  headers: Readonly<Record<string, string>>,
  run: (stream: SseStream) => Promise<void>,
): Response {
  const outgoing = nodeResponse(c);
  if (outgoing === undefined) {
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    return streamSSE(c, (api) =>
      run({
        writeSSE: (message) => api.writeSSE(message),
        writeData: (line) => api.writeSSE({ data: line }),
        onAbort: (listener) => api.onAbort(listener),
      }),
    );
  }
  const stream = writeTo(outgoing, headers);
  void run(stream)
    .catch(() => {})
    .finally(() => outgoing.end());
  return RESPONSE_ALREADY_SENT;
}
