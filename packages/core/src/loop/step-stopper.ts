/**
 * Lets a loop that awaits an async iterator step by step stop waiting at once (watchdog, abort).
 *
 * `Promise.race([iterator.next(), stopped])` on every step would add a reaction to the
 * long-lived `stopped` promise each time, kept until it settles: hundreds of bytes per streamed
 * delta, 700 MB for a 50 MB answer in 32-character deltas. Here only the current step is held.
 */
export class StepStopper {
  private rejectCurrent: ((reason: unknown) => void) | undefined;
  private stopped: { reason: unknown } | undefined;

  /** The next step of `iterator`, or a rejection with the stop reason as soon as `stop` is called. */
  next<T>(iterator: AsyncIterator<T>): Promise<IteratorResult<T>> {
    return new Promise((resolve, reject) => {
      if (this.stopped !== undefined) {
        reject(this.stopped.reason);
        return;
      }
      this.rejectCurrent = reject;
      try {
        iterator.next().then(resolve, reject);
      } catch (error) {
        reject(error);
      }
    });
  }

  /** Ends the pending and every later step with `reason`; the first reason wins. */
  stop(reason: unknown): void {
    if (this.stopped !== undefined) return;
    this.stopped = { reason };
    this.rejectCurrent?.(reason);
    this.rejectCurrent = undefined;
  }
}
