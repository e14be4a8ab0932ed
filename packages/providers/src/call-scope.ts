import { isModelError, type ModelCallOptions, ModelError } from '@agent/protocol';
import { type ErrorContext, modelErrorFromFacts, sanitizedCause } from './errors.js';
import { factsFromError } from './sdk-errors.js';

/** What a streamed SDK call hands back: the SDKs' streams carry the controller they run under. */
interface SdkStream {
  controller?: AbortController;
}

/**
 * One model call's lifetime, tied to the caller's signal and to the whole-call timeout. A
 * streamed call runs under the SDK's own controller (the scope takes it over once the stream
 * exists), so the call makes no controller of its own; a non-streamed one gets the scope's, made
 * on first read of `signal`. The SDKs never unhook the listener they add to a signal they are
 * given, so the caller's signal (one per session, living across all its calls) is never handed
 * to them: `open` settles the call itself when it stops before the stream exists.
 * The SDKs end a stream quietly when its signal aborts, so the scope remembers why it stopped
 * and turns that into the right `ModelError`.
 */
export class CallScope {
  private controller: AbortController | undefined;
  private stream: SdkStream | undefined;
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

  /** A signal for a non-streamed request: aborted when the call stops. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.stopReason !== undefined) this.controller.abort();
    }
    return this.controller.signal;
  }

  /**
   * Waits for a streamed request to open and takes over its controller, so a stop from then on
   * aborts the stream. A stop before that settles the wait at once; the stream, if it still
   * comes (the SDK's own timeout bounds it), is aborted on arrival.
   */
  async open<T extends object>(opening: Promise<T>): Promise<T> {
    let stream: T;
    try {
      stream =
        this.stopReason !== undefined
          ? await Promise.reject(this.stoppedError())
          : await Promise.race([
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
    this.stream = stream as SdkStream;
    return stream;
  }

  private abortOpen(): void {
    this.controller?.abort();
    this.stream?.controller?.abort();
  }

  private stop(reason: 'aborted' | 'timeout'): void {
    if (this.stopReason !== undefined) return;
    this.stopReason = reason;
    this.abortOpen();
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
    this.abortOpen();
  }

  /**
   * Ends the call: stops the timer, unhooks the caller's signal, and aborts whatever is still
   * open. A call whose response was read to the end (`finished`) has nothing open to abort.
   */
  dispose(finished = false): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.external?.removeEventListener('abort', this.onExternalAbort);
    if (!finished) this.abortOpen();
  }
}
