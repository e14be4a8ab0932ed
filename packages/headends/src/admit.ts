import type { Context } from 'hono';
import { type Admission, AdmissionError, type SessionTicket } from './admission.js';
import { admissionResponse, type ErrorResponder, httpError } from './http-guards.js';

/** Enters the admission queue for this request, or answers 429 / 503 (with Retry-After). */
export async function admit(
  c: Context,
  admission: Admission,
  respond: ErrorResponder,
): Promise<{ ok: true; ticket: SessionTicket } | { ok: false; response: Response }> {
  try {
    return { ok: true, ticket: await admission.enter(c.req.raw.signal) };
  } catch (error) {
    if (error instanceof AdmissionError) return { ok: false, response: admissionResponse(c, respond, error) };
    return { ok: false, response: httpError(c, respond, 'bad_request', 'client went away while queued') };
  }
}

/**
 * Serialises writes to a stream in call order; write errors end the chain quietly. A write
 * that returns nothing was handed over at once (no promise chained); one that returns a
 * promise holds the writes after it until it settles (a full socket buffer).
 */
export function writeQueue(): {
  push(write: () => Promise<unknown> | undefined): void;
  flush(): Promise<void>;
} {
  let tail: Promise<void> | undefined;
  let failed = false;
  const run = (write: () => Promise<unknown> | undefined): Promise<void> | undefined => {
    if (failed) return undefined;
    try {
      return write()?.then(
        () => undefined,
        () => {
          failed = true;
        },
      );
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
    push(write) {
      if (tail === undefined) hold(run(write));
      else hold(tail.then(() => run(write)));
    },
    flush: async () => {
      while (tail !== undefined) await tail;
    },
  };
}
