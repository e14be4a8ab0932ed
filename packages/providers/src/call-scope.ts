import { isModelError, type ModelCallOptions, ModelError } from '@agent/protocol';
import { type ErrorContext, modelErrorFromFacts, sanitizedCause } from './errors.js';
import { factsFromError } from './sdk-errors.js';

/** What a streamed SDK call hands back: the SDKs' streams carry the controller they run under. */
interface SdkStream {
  controller?: AbortController;
}

/**
 * One model call's lifetime, tied to the caller's signal and to the whole-call timeout. The
 * call has a controller of its own whose signal goes to the SDK with the request, streamed or
 * not, so a stop closes the HTTP request at once, whether it is waiting for the first byte or
 * mid-stream: the provider stops generating. The caller's signal (one per session, living across
 * all its calls) is never handed to the SDK, which may not unhook the listener it adds to the
 * signal it is given: the scope adds one listener to it per call and removes it when the call
 * ends, so a long-lived signal keeps nothing. The SDK's listener is on the call's own signal,
 * which goes away with the call.
 * The SDKs end a stream quietly when its signal aborts, so the scope remembers why it stopped
 * and turns that into the right `ModelError`.
 */
export class CallScope {
  private readonly controller = new AbortController();
  /** The call's own signal, for the SDK request: aborted when the call stops or ends unfinished. */
  readonly signal: AbortSignal = this.controller.signal;
  private readonly external: AbortSignal | undefined;
  private readonly timeoutMs: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopReason: 'aborted' | 'timeout' | undefined;
  /** Settles `open`'s wait when the call stops before the stream exists. */
  private rejectOpening: ((error: ModelError) => void) | undefined;
  private readonly onExternalAbort = (): void => this.stop('aborted');

  constructor(
    private readonly context: ErrorContext,
    options: ModelCallOptions | undefined,
    defaultTimeoutMs: number | undefined,
  ) {
    this.external = options?.signal;
    this.timeoutMs = options?.timeoutMs ?? defaultTimeoutMs;
    if (this.external?.aborted) {
      this.stop('aborted');
      return;
    }
    this.external?.addEventListener('abort', this.onExternalAbort, { once: true });
    if (this.timeoutMs !== undefined) {
      this.timer = setTimeout(() => this.stop('timeout'), this.timeoutMs);
    }
  }

  /**
   * Waits for a streamed request to open. A stop before that settles the wait at once (the
   * request itself is aborted through `signal`); a stream that still comes (a custom `fetch`
   * that ignores the signal) is aborted on arrival.
   */
  async open<T extends object>(opening: Promise<T>): Promise<T> {
    try {
      if (this.stopReason !== undefined) throw this.stoppedError();
      return await Promise.race([
        opening,
        new Promise<never>((_, reject) => {
          this.rejectOpening = reject;
        }),
      ]);
    } catch (error) {
      opening.then(
        (late) => (late as SdkStream).controller?.abort(),
        () => undefined,
      );
      throw error;
    } finally {
      this.rejectOpening = undefined;
    }
  }

  private stop(reason: 'aborted' | 'timeout'): void {
    if (this.stopReason !== undefined) return;
    this.stopReason = reason;
    this.controller.abort();
    this.rejectOpening?.(this.stoppedError());
  }

  /** Throws the abort or timeout error when the call was stopped. */
  throwIfStopped(): void {
    if (this.stopReason !== undefined) throw this.stoppedError();
  }

  private stoppedError(): ModelError {
    const { provider, model } = this.context;
    if (this.stopReason === 'timeout') {
      return new ModelError({
        kind: 'timeout',
        message: `${provider}/${model}: timed out: no complete answer within ${this.timeoutMs} ms`,
        provider,
        model,
      });
    }
    return new ModelError({
      kind: 'aborted',
      message: `${provider}/${model}: aborted by the caller`,
      provider,
      model,
    });
  }

  /** The protocol error for anything the call threw. */
  toModelError(err: unknown): ModelError {
    if (this.stopReason !== undefined) return this.stoppedError();
    if (isModelError(err)) return err;
    const facts = factsFromError(err);
    if (facts === 'aborted') {
      const { provider, model } = this.context;
      return new ModelError({
        kind: 'aborted',
        message: `${provider}/${model}: request aborted`,
        provider,
        model,
      });
    }
    return modelErrorFromFacts(facts, this.context, { cause: sanitizedCause(err, this.context.secrets) });
  }

  /** Aborts the request without failing the call (its answer is already complete). */
  release(): void {
    this.controller.abort();
  }

  /**
   * Ends the call: stops the timer, unhooks the caller's signal, and aborts whatever is still
   * open. A call whose response was read to the end (`finished`) has nothing open to abort.
   */
  dispose(finished = false): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.external?.removeEventListener('abort', this.onExternalAbort);
    if (!finished) this.controller.abort();
  }
}
