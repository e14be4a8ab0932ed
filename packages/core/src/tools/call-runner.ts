import {
  AgentError,
  type GuardrailTrip,
  type OpNode,
  type PausedChild,
  type PendingToolCall,
  type SessionNode,
  type SessionSnapshot,
  type ToolCallRequest,
  type ToolEndSession,
  type ToolExecuteOptions,
  type ToolProvider,
  type ToolResult,
} from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { CancelSource } from './abort-fanout.js';
import { idempotencyKey } from './idempotency-key.js';
import { ownGetter } from './own-getter.js';
import type { ToolLookup } from './tool-registry.js';

export interface RawToolOutcome {
  ok: boolean;
  text: string;
  /** Short error for accounting when `ok` is false. */
  error?: string;
  /** Why it failed in a few words, for the `tool_finished` event when `text` would not do. */
  summary?: string;
  provider?: ToolProvider;
  /** A sub-agent's op tree, hung under the call's operation. */
  childSession?: SessionNode;
  /** Deferred tools this result loads (a native tool search's findings). */
  toolReferences?: string[];
  /** Structured content the tool answered beside its text (`ToolResult.structured`). */
  structured?: unknown;
  /** The tool answered for the session: it ends after this turn with this report. */
  endSession?: ToolEndSession;
  /** The tool's sub-agent paused for approval (`ToolResult.paused`): the session pauses too. */
  paused?: { pending: PendingToolCall[]; snapshot: SessionSnapshot };
  /** An `agent__batch` whose inner calls ran sub-agents that paused: by their inner call ids. */
  pausedInner?: PausedCall[];
  /** The provider answered from a cache (`ToolResult.cached`): marked on the accounting and the op node. */
  cached?: true;
  /** Taken from the turn journal by a resumed session: the call ran in the process that crashed. */
  replayed?: true;
  /** A `result` guardrail blocked it (its text is replaced): the run ends. */
  guardrail?: GuardrailTrip;
}

/** A call (or a call inside a batch) whose sub-agent session paused for approval. */
export interface PausedCall {
  callId: string;
  pending: PendingToolCall[];
  snapshot: SessionSnapshot;
}

export function failedText(message: string): string {
  return `(tool failed: ${message})`;
}

/**
 * The signal a tool call runs under, made when the tool first reads it: most function tools
 * never do, and an AbortController costs more than the rest of an in-process call.
 */
class LazyAbort {
  private controller: AbortController | undefined;
  private stopped: { reason: unknown } | undefined;

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.stopped !== undefined) this.controller.abort(this.stopped.reason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.stopped !== undefined) return;
    this.stopped = { reason };
    this.controller?.abort(reason);
  }
}

/**
 * What a provider's `execute` gets: `signal` an own enumerable getter (as an object literal's
 * would be, so a spread copies it; see `ownGetter`), then `timeoutMs` and `onProgress`.
 */
class CallExecuteOptions implements ToolExecuteOptions {
  static readonly #signal = ownGetter((self: CallExecuteOptions) => self.#abort.signal);
  readonly #abort: LazyAbort;
  declare readonly signal: AbortSignal;
  declare readonly timeoutMs: number;
  declare onProgress?: ToolExecuteOptions['onProgress'];

  constructor(abort: LazyAbort, timeoutMs: number, onProgress: ToolExecuteOptions['onProgress']) {
    this.#abort = abort;
    Object.defineProperty(this, 'signal', CallExecuteOptions.#signal);
    (this as { timeoutMs: number }).timeoutMs = timeoutMs;
    if (onProgress !== undefined) this.onProgress = onProgress;
  }
}

/**
 * The request a provider's `execute` gets: `idempotencyKey` an own enumerable getter (a spread
 * copies it), hashed when first read: most in-process tools never read it, and a SHA-256 per
 * call would show in the loop's CPU.
 */
class SessionCallRequest implements ToolCallRequest {
  static readonly #key = ownGetter((self: SessionCallRequest) => self.#keyOf());
  readonly #sessionId: string;
  readonly #turn: number;
  #keyValue: string | undefined;
  declare readonly name: string;
  declare readonly arguments: Record<string, unknown>;
  declare readonly callId: string;
  declare readonly idempotencyKey: string;
  declare resume?: PausedChild;

  constructor(name: string, args: Record<string, unknown>, callId: string, options: ExternalCallOptions) {
    this.#sessionId = options.sessionId;
    this.#turn = options.turn;
    (this as { name: string }).name = name;
    (this as { arguments: Record<string, unknown> }).arguments = args;
    (this as { callId: string }).callId = callId;
    Object.defineProperty(this, 'idempotencyKey', SessionCallRequest.#key);
  }

  #keyOf(): string {
    this.#keyValue ??= idempotencyKey(this.#sessionId, this.#turn, this.callId);
    return this.#keyValue;
  }
}

export interface ExternalCallOptions {
  /** The session and turn of the call: with its id, its idempotency key. */
  sessionId: string;
  turn: number;
  /** Where the call hears the session's cancellation (no listener per call). */
  cancel: CancelSource;
  timeoutMs: number;
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
  /** The paused sub-agent session this call continues (a resumed session's paused turn). */
  resume?: PausedChild;
}

/**
 * Runs one external tool call with its own timeout and the session's signal. A provider that
 * throws, hangs past the timeout or ignores the signal still yields an outcome: never a crash.
 */
export function runExternalCall(
  registry: ToolLookup,
  name: string,
  args: Record<string, unknown>,
  callId: string,
  options: ExternalCallOptions,
): Promise<RawToolOutcome> {
  const resolved = registry.resolve(name);
  if (resolved === undefined) return Promise.resolve(unknownTool(registry, name));
  const pending = new PendingCall(resolved.provider, options.cancel, options.timeoutMs);
  // Optional fields set after the literals: a conditional spread cost an object and a copy per call.
  const call = new SessionCallRequest(name, args, callId, options);
  if (options.resume !== undefined) call.resume = options.resume;
  const callOptions = new CallExecuteOptions(pending.abort, options.timeoutMs, options.onProgress);
  try {
    resolved.provider.execute(call, callOptions).then(pending.settle, pending.fail);
  } catch (error) {
    // A provider that throws instead of rejecting: the call fails as the async wrapper made it.
    pending.close();
    return Promise.reject(error);
  }
  return pending.outcome;
}

function unknownTool(registry: ToolLookup, name: string): RawToolOutcome {
  const available = registry.names();
  const list = available.length > 0 ? available.join(', ') : 'none';
  return {
    ok: false,
    text: failedText(`unknown tool "${name}"; available tools: ${list}`),
    error: 'unknown_tool',
  };
}

/**
 * One call in flight, settled once by whichever comes first: the answer, the timeout or the
 * session's cancellation (a race of three promises cost each call three more). Settling cleans
 * up at once, so the call's outcome is the promise itself, with no async function around it.
 */
class PendingCall {
  readonly outcome: Promise<RawToolOutcome>;
  readonly abort = new LazyAbort();
  private finish!: (outcome: RawToolOutcome) => void;
  private open = true;
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(
    private readonly provider: ToolProvider,
    private readonly cancel: CancelSource,
    readonly timeoutMs: number,
  ) {
    this.outcome = new Promise<RawToolOutcome>((resolve) => {
      this.finish = resolve;
    });
    this.timer = setTimeout(timeOut, timeoutMs, this);
    cancel.add(this.onCancelled);
  }

  readonly settle = (result: ToolResult): void => {
    if (!this.open) return;
    this.close();
    this.finish(outcomeOf(result, this.provider));
  };

  readonly fail = (error: unknown): void =>
    this.settle({ ok: false, error: { kind: 'execution', message: errorMessage(error) } });

  // Only the session's own cancellation counts as "cancelled"; our timeout aborts the call too.
  private readonly onCancelled = (): void => {
    this.abort.abort(this.cancel.signal.reason);
    this.settle({ ok: false, error: { kind: 'aborted', message: 'the session was cancelled' } });
  };

  /** Stops the timer and unhooks the cancellation; nothing settles the outcome after this. */
  close(): void {
    this.open = false;
    clearTimeout(this.timer);
    this.cancel.delete(this.onCancelled);
  }
}

function timeOut(pending: PendingCall): void {
  pending.settle({
    ok: false,
    error: { kind: 'timeout', message: `no answer within ${pending.timeoutMs} ms` },
  });
  pending.abort.abort(new AgentError('timeout', 'tool timeout'));
}

/** What the executor keeps of a tool's result. */
function outcomeOf(result: ToolResult, provider: ToolProvider): RawToolOutcome {
  if (!result.ok) {
    const outcome: RawToolOutcome = {
      ok: false,
      text: failedText(result.error.message),
      error: result.error.kind,
      provider,
    };
    if (result.childSession !== undefined) outcome.childSession = result.childSession;
    if (result.paused !== undefined) outcome.paused = result.paused;
    return outcome;
  }
  const outcome: RawToolOutcome =
    result.isError === true
      ? { ok: false, text: result.text, error: 'tool_error', provider }
      : { ok: true, text: result.text, provider };
  if (result.childSession !== undefined) outcome.childSession = result.childSession;
  if (result.isError === true) return outcome;
  if (result.structured !== undefined) outcome.structured = result.structured;
  if (result.endSession !== undefined) outcome.endSession = result.endSession;
  if (result.cached) outcome.cached = true;
  return outcome;
}

/** `protocol:namespace:tool` for log lines. */
export function remoteIdentifier(provider: ToolProvider | undefined, name: string): string {
  if (provider === undefined) return `unknown:unknown:${name}`;
  return `${provider.kind ?? 'mcp'}:${provider.id}:${name}`;
}

export type { OpNode };
