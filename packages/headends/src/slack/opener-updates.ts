/**
 * The one progress message of a conversation, updated in place with the latest progress line
 * no more often than every `intervalMs` (counted from the last write, the opener's post
 * included): a line that comes sooner waits, and a newer one replaces it. Writes never overlap.
 */
export class OpenerUpdates {
  private lastWrite: number;
  private shown: string | undefined;
  private pending: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly write: (text: string) => Promise<void>,
    private readonly intervalMs: number,
    initialText: string,
  ) {
    this.lastWrite = Date.now();
    this.shown = initialText;
  }

  /** Asks for `text` to be shown; it is written now or when the interval allows. */
  show(text: string): void {
    if (this.stopped || text === (this.pending ?? this.shown)) return;
    this.pending = text;
    this.schedule();
  }

  /** No more updates: cancels a waiting one and waits for a write in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
    await this.inFlight;
  }

  private schedule(): void {
    if (this.timer !== undefined || this.inFlight !== undefined || this.pending === undefined) return;
    const wait = this.lastWrite + this.intervalMs - Date.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, wait);
      this.timer.unref();
      return;
    }
    this.flush();
  }

  private flush(): void {
    const text = this.pending;
    if (this.stopped || text === undefined) return;
    this.pending = undefined;
    this.lastWrite = Date.now();
    this.inFlight = this.write(text)
      .catch(() => undefined)
      .then(() => {
        this.shown = text;
        this.lastWrite = Date.now();
        this.inFlight = undefined;
        this.schedule();
      });
  }
}
