import { isModelError, type ModelCallOptions, ModelError } from '@agent/protocol';
import { type ErrorContext, modelErrorFromFacts, sanitizedCause } from './errors.js';
import { factsFromError } from './sdk-errors.js';

/**
 * One model call's lifetime: an AbortController the SDK request runs under, tied to the caller's
 * signal and to the whole-call timeout. The SDKs end a stream quietly when its signal aborts, so
 * the scope remembers why it stopped and turns that into the right `ModelError`.
 */
export class CallScope {
  private readonly controller = new AbortController();
  private readonly external: AbortSignal | undefined;
  private readonly timeoutMs: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopReason: 'aborted' | 'timeout' | undefined;
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

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  private stop(reason: 'aborted' | 'timeout'): void {
    if (this.stopReason !== undefined) return;
    this.stopReason = reason;
    this.controller.abort();
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
    if (!finished && !this.controller.signal.aborted) this.controller.abort();
  }
}
