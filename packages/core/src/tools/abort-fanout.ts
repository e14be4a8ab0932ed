/** What a tool call or model attempt hears a cancellation from: the signal, and callbacks. */
export interface CancelSource {
  readonly signal: AbortSignal;
  /** Calls `onAbort` once when the signal aborts, at once if it already has. */
  add(onAbort: () => void): void;
  /** Forgets `onAbort` (its call is done). */
  delete(onAbort: () => void): void;
}

/**
 * A `CancelSource` over a signal the caller owns (a session's own is `SessionCancel`, which
 * needs no listener): one `abort` listener for every call in flight instead of one per call, as
 * an EventTarget listener (its options object, registration and removal) costs more than the
 * rest of an in-process call's bookkeeping. It is added when the first call starts waiting and
 * removed when the last one is done, so a signal that outlives its calls keeps nothing.
 */
export class AbortFanout implements CancelSource {
  private readonly waiting = new Set<() => void>();
  private listening = false;

  constructor(readonly signal: AbortSignal) {}

  /** Calls `onAbort` once when the signal aborts, at once if it already has. */
  add(onAbort: () => void): void {
    if (this.signal.aborted) {
      onAbort();
      return;
    }
    this.waiting.add(onAbort);
    if (!this.listening) {
      this.listening = true;
      this.signal.addEventListener('abort', this.fire, { once: true });
    }
  }

  /** Forgets `onAbort` (its call is done). */
  delete(onAbort: () => void): void {
    if (!this.waiting.delete(onAbort) || this.waiting.size > 0 || !this.listening) return;
    this.listening = false;
    this.signal.removeEventListener('abort', this.fire);
  }

  private readonly fire = (): void => {
    this.listening = false;
    const callbacks = [...this.waiting];
    this.waiting.clear();
    for (const callback of callbacks) callback();
  };
}
