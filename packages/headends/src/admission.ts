import { AgentError } from '@agent/protocol';
import { HeadendError } from './headend-error.js';

/** Why a request was not admitted. */
export type AdmissionRefusal = 'queue_full' | 'draining';

/** A request the server cannot take now (code `admission_refused`; `refusal` says why). */
export class AdmissionError extends AgentError {
  override readonly name = 'AdmissionError';
  readonly refusal: AdmissionRefusal;
  readonly status: 429 | 503;
  readonly retryAfterSeconds: number;
  constructor(
    refusal: AdmissionRefusal,
    retryAfterSeconds: number,
    limit: number,
    queueSize: number,
    message?: string,
  ) {
    super(
      'admission_refused',
      message ??
        (refusal === 'draining'
          ? 'the server is shutting down and accepts no new sessions'
          : `too many sessions: ${limit} running and ${queueSize} queued (the limit); retry later`),
    );
    this.refusal = refusal;
    this.status = refusal === 'draining' ? 503 : 429;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * An outside check made before a request is admitted (a shared run queue's length): a refusal
 * answers 429 with its `Retry-After`; a check that fails admits the request.
 */
export type AdmissionGate = () => Promise<{ retryAfterSeconds: number; message: string } | undefined>;

/** An admitted session: its signal aborts on client disconnect or forced shutdown. */
export interface SessionTicket {
  readonly signal: AbortSignal;
  abort(reason?: string): void;
  /** Frees the slot; idempotent. */
  release(): void;
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Concurrency limit with a FIFO queue, and the registry of running sessions for draining. */
export class Admission {
  readonly limit: number;
  readonly queueSize: number;
  readonly retryAfterSeconds: number;
  private running = 0;
  private readonly waiters: Waiter[] = [];
  private readonly sessions = new Set<AbortController>();
  private readonly idleWaiters: (() => void)[] = [];
  private isDraining = false;

  private readonly gate: AdmissionGate | undefined;
  /**
   * Told how long each admitted request waited for its slot (milliseconds; about 0 when a slot
   * was free): the server's queue-wait metric. A throwing listener is ignored.
   */
  onAdmitted: ((waitedMs: number) => void) | undefined;

  constructor(
    options: { limit?: number; queueSize?: number; retryAfterSeconds?: number; gate?: AdmissionGate } = {},
  ) {
    this.gate = options.gate;
    this.limit = Math.max(1, options.limit ?? 16);
    this.queueSize = Math.max(0, options.queueSize ?? 64);
    this.retryAfterSeconds = options.retryAfterSeconds ?? 1;
  }

  get active(): number {
    return this.running;
  }
  get queued(): number {
    return this.waiters.length;
  }
  get draining(): boolean {
    return this.isDraining;
  }

  /**
   * Waits for a slot (FIFO); throws `AdmissionError` when the queue is full or the server drains.
   * `client` aborts when the client goes away; given as a function, it is called only if the
   * request has to wait, and the ticket does not listen to it otherwise (the caller does).
   */
  async enter(client?: AbortSignal | (() => AbortSignal)): Promise<SessionTicket> {
    let clientSignal = typeof client === 'function' ? undefined : client;
    if (this.isDraining) throw this.refuse('draining');
    const arrived = performance.now();
    // Without a gate nothing is awaited: a request joins the queue in call order.
    const refusal = this.gate === undefined ? undefined : await this.gate().catch(() => undefined);
    if (this.isDraining) throw this.refuse('draining');
    if (refusal !== undefined) {
      throw new AdmissionError(
        'queue_full',
        refusal.retryAfterSeconds,
        this.limit,
        this.queueSize,
        refusal.message,
      );
    }
    if (this.running >= this.limit) {
      if (this.waiters.length >= this.queueSize) throw this.refuse('queue_full');
      if (typeof client === 'function') clientSignal = client();
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { resolve, reject };
        this.waiters.push(waiter);
        clientSignal?.addEventListener(
          'abort',
          () => {
            const at = this.waiters.indexOf(waiter);
            if (at >= 0) this.waiters.splice(at, 1);
            reject(new HeadendError('client_gone', 'client went away while queued'));
          },
          { once: true },
        );
      });
    } else {
      this.running += 1;
    }
    try {
      this.onAdmitted?.(performance.now() - arrived);
    } catch {
      // A metrics listener's bug must not refuse the request.
    }
    return this.ticket(clientSignal);
  }

  /** Stops admitting; queued requests get 503. */
  beginDrain(): void {
    this.isDraining = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(this.refuse('draining'));
    this.checkIdle();
  }

  /** Aborts every running session. */
  abortAll(reason = 'server shutting down'): void {
    for (const controller of this.sessions) controller.abort(new AgentError('aborted', reason));
  }

  /** Resolves when no session runs or waits. */
  idle(): Promise<void> {
    if (this.running === 0 && this.waiters.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private ticket(clientSignal: AbortSignal | undefined): SessionTicket {
    const controller = new AbortController();
    const onClientAbort = () => controller.abort(new AgentError('aborted', 'client disconnected'));
    if (clientSignal?.aborted) onClientAbort();
    else clientSignal?.addEventListener('abort', onClientAbort, { once: true });
    this.sessions.add(controller);
    let released = false;
    return {
      signal: controller.signal,
      abort: (reason = 'session aborted') => controller.abort(new AgentError('aborted', reason)),
      release: () => {
        if (released) return;
        released = true;
        clientSignal?.removeEventListener('abort', onClientAbort);
        this.sessions.delete(controller);
        const next = this.waiters.shift();
        if (next) next.resolve();
        else this.running -= 1;
        this.checkIdle();
      },
    };
  }

  private checkIdle(): void {
    if (this.running !== 0 || this.waiters.length !== 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private refuse(refusal: AdmissionRefusal): AdmissionError {
    return new AdmissionError(refusal, this.retryAfterSeconds, this.limit, this.queueSize);
  }
}
