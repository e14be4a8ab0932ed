import type { ModelCallOptions, ModelStreamEvent } from '@agent/protocol';
import { CallScope } from './call-scope.js';
import type { ModelPricing } from './config.js';
import type { ErrorContext } from './errors.js';
import { applyPricing } from './usage-cost.js';

/** Turns one API's stream chunks into protocol events. */
export interface StreamMapper<Chunk> {
  /** Appends the events for one chunk to `out`. Throws a `StreamFailure` for a broken or failed stream. */
  handle(chunk: Chunk, out: ModelStreamEvent[]): void;
  /** True once the terminal event arrived; what follows is only drained, never mapped. */
  readonly done: boolean;
  /** Appends the closing events (tool calls, usage, finish), or throws when the stream ended early. */
  finish(out: ModelStreamEvent[]): void;
}

/** How one client makes one call, streamed or not. */
export interface CallPlan<Chunk, Response> {
  stream: boolean;
  /** What the client changed in the request to make it valid, yielded first as `notice` events. */
  notices?: readonly string[];
  /**
   * Opens the SDK stream under the call's own signal (aborted when the call stops, which closes
   * the request), with the SDK's timeout covering the wait for headers.
   */
  openStream(signal: AbortSignal): Promise<AsyncIterable<Chunk>>;
  createMapper(): StreamMapper<Chunk>;
  fetchResponse(signal: AbortSignal): Promise<Response>;
  mapResponse(response: Response, out: ModelStreamEvent[]): void;
}

export interface CallContext extends ErrorContext {
  timeoutMs?: number;
  pricing?: ModelPricing;
}

function priced(event: ModelStreamEvent, pricing: ModelPricing | undefined): ModelStreamEvent {
  if (event.type === 'usage') applyPricing(event.usage, pricing);
  return event;
}

/** How long to keep reading after the terminal event, for the rest of the body to arrive. */
const DRAIN_GRACE_MS = 1000;

/**
 * The answer is complete. Reading on to the end of the body lets the connection be reused for
 * the next call; a server that keeps the stream open past the grace period is cut instead.
 */
async function drain(iterator: AsyncIterator<unknown>, scope: CallScope): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), DRAIN_GRACE_MS);
  });
  try {
    for (;;) {
      const result = await Promise.race([iterator.next(), expired]);
      if (result === 'expired') {
        scope.release();
        return false;
      }
      if (result.done) return true;
    }
  } catch {
    // Whatever follows a complete answer does not change it.
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs one call under a `CallScope`: yields the mapped events, turns every failure into a
 * `ModelError`, and aborts the request on exit (a consumer that stops early releases the socket).
 */
export async function* runCall<Chunk, Response>(
  context: CallContext,
  options: ModelCallOptions | undefined,
  plan: CallPlan<Chunk, Response>,
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const scope = new CallScope(context, options, context.timeoutMs);
  const out: ModelStreamEvent[] = [];
  let iterator: AsyncIterator<Chunk> | undefined;
  // Read to its end: nothing is left open, so there is nothing to abort (aborting costs two
  // DOMExceptions and runs the SDK's and undici's listeners on every call).
  let finished = false;
  try {
    scope.throwIfStopped();
    for (const message of plan.notices ?? []) yield { type: 'notice', message };
    if (plan.stream) {
      const stream = await scope.open(plan.openStream(scope.signal));
      iterator = stream[Symbol.asyncIterator]();
      const mapper = plan.createMapper();
      for (;;) {
        const next = await iterator.next();
        if (next.done) {
          finished = true;
          break;
        }
        mapper.handle(next.value, out);
        if (out.length > 0) {
          for (const event of out) yield priced(event, context.pricing);
          out.length = 0;
        }
        if (mapper.done) {
          finished = await drain(iterator, scope);
          break;
        }
      }
      scope.throwIfStopped();
      mapper.finish(out);
    } else {
      const response = await plan.fetchResponse(scope.signal);
      finished = true;
      scope.throwIfStopped();
      plan.mapResponse(response, out);
    }
    for (const event of out) yield priced(event, context.pricing);
  } catch (err) {
    throw scope.toModelError(err);
  } finally {
    scope.dispose(finished);
    // Closes the SDK stream (after the abort above, so a pending read cannot hold it open).
    if (!finished) await iterator?.return?.().catch(() => undefined);
  }
}
