/**
 * The session's own cancellation: the signal its model clients, tools and sleeps are given, and
 * a direct line to the model attempt in flight. An attempt used to add an `abort` listener to the
 * signal and remove it again (an EventTarget listener, its options object, registration and
 * removal: more than the rest of the attempt's setup); the session, which alone aborts its
 * signal, tells the attempt itself, right after the signal's listeners have run.
 */
export class SessionCancel {
  private readonly controller = new AbortController();
  readonly signal: AbortSignal = this.controller.signal;
  /** The one attempt waiting (a session runs its model attempts one after the other). */
  private waiting: ((reason: unknown) => void) | undefined;

  abort(reason: unknown): void {
    if (this.signal.aborted) return;
    this.controller.abort(reason);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(this.signal.reason);
  }

  /** Calls `onCancel` with the reason when the session is cancelled, at once if it is already. */
  hear(onCancel: (reason: unknown) => void): void {
    if (this.signal.aborted) onCancel(this.signal.reason);
    else this.waiting = onCancel;
  }

  /** Forgets `onCancel` (its attempt is over). */
  forget(onCancel: (reason: unknown) => void): void {
    if (this.waiting === onCancel) this.waiting = undefined;
  }
}
