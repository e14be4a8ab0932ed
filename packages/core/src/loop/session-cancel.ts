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
  /**
   * The callbacks to call, in the order they came. Mostly one (the model attempt in flight): a
   * slot of its own, and a set (~150 bytes even when empty) only while there are more.
   */
  private first: (() => void) | undefined;
  private more: Set<() => void> | undefined;

  abort(reason: unknown): void {
    if (this.signal.aborted) return;
    this.controller.abort(reason);
    const first = this.first;
    const more = this.more === undefined ? [] : [...this.more];
    this.first = undefined;
    this.more = undefined;
    first?.();
    for (const callback of more) callback();
  }

  /** Calls `onAbort` once when the session is cancelled, at once if it already is. */
  add(onAbort: () => void): void {
    if (this.signal.aborted) onAbort();
    else if (this.first === undefined && this.more === undefined) this.first = onAbort;
    else if (this.first !== onAbort) {
      this.more ??= new Set();
      this.more.add(onAbort);
    }
  }

  /** Forgets `onAbort` (its attempt or call is over). */
  delete(onAbort: () => void): void {
    if (this.first === onAbort) this.first = undefined;
    else if (this.more !== undefined) {
      this.more.delete(onAbort);
      if (this.more.size === 0) this.more = undefined;
    }
  }
}
