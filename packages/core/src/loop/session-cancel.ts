import type { CancelSource } from '../tools/abort-fanout.js';

/**
 * The session's own cancellation: the signal its model clients, tools and sleeps are given, and
 * a direct line to the model attempt and the tool calls in flight. They used to add an `abort`
 * listener to the signal and remove it again (an EventTarget listener, its options object,
 * registration and removal: more than the rest of a call's setup); the session, which alone
 * aborts its signal, tells them itself, right after the signal's listeners have run.
 */
export class SessionCancel implements CancelSource {
  private readonly controller = new AbortController();
  readonly signal: AbortSignal = this.controller.signal;
  private readonly waiting = new Set<() => void>();

  abort(reason: unknown): void {
    if (this.signal.aborted) return;
    this.controller.abort(reason);
    const callbacks = [...this.waiting];
    this.waiting.clear();
    for (const callback of callbacks) callback();
  }

  /** Calls `onAbort` once when the session is cancelled, at once if it already is. */
  add(onAbort: () => void): void {
    if (this.signal.aborted) onAbort();
    else this.waiting.add(onAbort);
  }

  /** Forgets `onAbort` (its attempt or call is over). */
  delete(onAbort: () => void): void {
    this.waiting.delete(onAbort);
  }
}
