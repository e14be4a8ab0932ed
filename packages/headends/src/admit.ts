import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';
import { type Admission, AdmissionError, type SessionTicket } from './admission.js';
import { admissionResponse, type ErrorResponder, httpError } from './http-guards.js';
import { nodeResponse, onClientGone } from './node-response.js';
import type { SseMessage, SseStream } from './sse-stream.js';

/** Enters the admission queue for this request, or answers 429 / 503 (with Retry-After). */
export async function admit(
  c: Context,
  admission: Admission,
  respond: ErrorResponder,
): Promise<{ ok: true; ticket: SessionTicket } | { ok: false; response: Response }> {
  try {
    const outgoing = nodeResponse(c);
    if (outgoing === undefined) return { ok: true, ticket: await admission.enter(c.req.raw.signal) };
    // On `@hono/node-server` the request's signal is built (an AbortController listening to the
    // connection) only when the request has to wait; the admitted session hears of the client
    // going away from the Node response itself.
    const ticket = await admission.enter(lazySignal(c));
    abortWhenGone(outgoing, ticket);
    return { ok: true, ticket };
  } catch (error) {
    if (error instanceof AdmissionError) return { ok: false, response: admissionResponse(c, respond, error) };
    return { ok: false, response: httpError(c, respond, 'bad_request', 'client went away while queued') };
  }
}

/** The request's signal, built when asked for (in a scope of its own: no listener keeps `c`). */
function lazySignal(c: Context): () => AbortSignal {
  return () => c.req.raw.signal;
}

/** Aborts the ticket when the client goes away (the listener holds the ticket alone). */
function abortWhenGone(outgoing: ServerResponse, ticket: SessionTicket): void {
  onClientGone(outgoing, () => ticket.abort('client disconnected'));
}

/**
 * Serialises a stream's events in call order (a string: a `data:` line known to hold no line
 * break, see `SseStream.writeData`); write errors end the chain quietly. An event
 * handed over at once chains no promise; one whose write returns a promise (a full socket
 * buffer) holds the events after it until it settles.
 */
export function writeQueue(stream: SseStream): {
  push(message: SseMessage | string): void;
  flush(): Promise<void>;
} {
  let tail: Promise<void> | undefined;
  let failed = false;
  const settled = () => undefined;
  const fail = () => {
    failed = true;
  };
  const write = (message: SseMessage | string): Promise<void> | undefined => {
    if (failed) return undefined;
    try {
      const pending = typeof message === 'string' ? stream.writeData(message) : stream.writeSSE(message);
      return pending?.then(settled, fail);
    } catch {
      failed = true;
      return undefined;
    }
  };
  const hold = (pending: Promise<void> | undefined) => {
    tail = pending;
    pending?.then(() => {
      if (tail === pending) tail = undefined;
    });
  };
  return {
    push(message) {
      if (tail === undefined) hold(write(message));
      else hold(tail.then(() => write(message)));
    },
    flush: async () => {
      while (tail !== undefined) await tail;
    },
  };
}
