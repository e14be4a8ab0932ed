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

/** Serialises async writes to a stream in call order; write errors end the chain quietly. */
export function writeQueue(): { push(write: () => Promise<unknown>): void; flush(): Promise<void> } {
  let tail: Promise<unknown> = Promise.resolve();
  let failed = false;
  return {
    push(write) {
      tail = tail.then(async () => {
        if (failed) return;
        try {
          await write();
        } catch {
          failed = true;
        }
      });
    },
    flush: async () => {
      await tail;
    },
  };
}
