/**
 * One `abort` listener on the session's signal for every tool call in flight, instead of one
 * per call (a model attempt needs none: the session tells it, `loop/session-cancel.ts`): an EventTarget listener (its options object, its
 * registration and removal) cost more than the rest of an in-process call's bookkeeping. The
 * listener is added when the first call starts waiting and removed when the last one is done,
 * so a signal that outlives the session (a caller's) keeps nothing; with `keep` (a signal the
 * session owns, gone with it) it stays, and a turn adds and removes none.
 */
export class AbortFanout {
  private readonly waiting = new Set<() => void>();
  private listening = false;

  constructor(
    readonly signal: AbortSignal,
    private readonly keep = false,
  ) {}

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
    if (!this.waiting.delete(onAbort) || this.keep || this.waiting.size > 0 || !this.listening) return;
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
