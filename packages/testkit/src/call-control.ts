import type { ModelError } from '@agent/protocol';
import { abortableSleep } from '@agent/protocol/util';

const TIMEOUT = Symbol('timeout');
const ABORTED = Symbol('aborted');

/**
 * The caller's signal and `timeoutMs` for one in-process call, merged into one internal signal so
 * every wait ends promptly with a `ModelError` of kind `aborted` or `timeout`.
 */
export class CallControl {
  readonly #controller = new AbortController();
  readonly #outer: AbortSignal | undefined;
  readonly #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #onOuterAbort = () => this.#controller.abort(ABORTED);
  readonly #describe: (what: 'aborted' | 'timeout') => ModelError;

  constructor(
    options: { signal?: AbortSignal; timeoutMs?: number },
    describe: (what: 'aborted' | 'timeout') => ModelError,
  ) {
    this.#describe = describe;
    this.#outer = options.signal;
    if (this.#outer?.aborted) this.#controller.abort(ABORTED);
    else this.#outer?.addEventListener('abort', this.#onOuterAbort, { once: true });
    if (options.timeoutMs !== undefined) {
      this.#timer = setTimeout(() => this.#controller.abort(TIMEOUT), options.timeoutMs);
    }
  }

  /** Throws the matching `ModelError` when the call was aborted or timed out. */
  check(): void {
    if (this.#controller.signal.aborted) throw this.#error(this.#controller.signal.reason);
  }

  /** Waits, ending early with the matching `ModelError`. */
  async sleep(ms: number): Promise<void> {
    if (ms <= 0) {
      this.check();
      return;
    }
    try {
      await abortableSleep(ms, this.#controller.signal);
    } catch (reason) {
      throw this.#error(reason);
    }
  }

  /** Waits until the call is aborted or times out (forever when neither can happen), then throws. */
  async waitUntilStopped(): Promise<never> {
    const signal = this.#controller.signal;
    if (!signal.aborted)
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    throw this.#error(signal.reason);
  }

  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#outer?.removeEventListener('abort', this.#onOuterAbort);
  }

  #error(reason: unknown): ModelError {
    return this.#describe(reason === TIMEOUT ? 'timeout' : 'aborted');
  }
}
