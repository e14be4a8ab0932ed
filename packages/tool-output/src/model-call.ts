import {
  type AccountingEntry,
  AgentError,
  isModelError,
  type LogEntry,
  type ModelRequest,
  type ModelTarget,
  type TokenUsage,
} from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { FinalSlotParser } from '@agent/xml-transport';

/** Where extraction calls report: the session's log and accounting. */
export interface CallReporting {
  log(entry: Omit<LogEntry, 'timestamp'>): void;
  account(entry: AccountingEntry): void;
  agentPath: string | undefined;
  now: () => number;
}

/** An extraction strategy could not run (every model failed, no tools, child failed, ...). */
export class StrategyError extends AgentError {
  override readonly name = 'StrategyError';

  constructor(message: string) {
    super('extraction_failed', message);
  }
}

export interface ExtractionAnswer {
  /** The text inside the FINAL wrapper, trimmed. */
  text: string;
  provider: string;
  model: string;
}

/** What one call is for, in logs: `map 3/12`, `reduce`. */
export type CallLabel = string;

function identifier(target: ModelTarget): string {
  return `${target.client.provider}:${target.client.model}`;
}

function failureText(error: unknown): string {
  return isModelError(error) ? `${error.kind}: ${error.message}` : errorMessage(error);
}

/** What one attempt at one target came to. */
interface Attempt {
  usage: TokenUsage | undefined;
  stopReason: string | undefined;
  /** Why the attempt gave no answer (undefined when it gave one). */
  failure: string | undefined;
  /** The trimmed text inside the FINAL wrapper. */
  payload: string | undefined;
}

/** Streams one target's answer through the FINAL slot parser; rethrows when `signal` was aborted. */
async function attemptTarget(
  target: ModelTarget,
  request: ModelRequest,
  nonce: string,
  signal: AbortSignal,
): Promise<Attempt> {
  const parser = new FinalSlotParser({ nonce });
  const attempt: Attempt = {
    usage: undefined,
    stopReason: undefined,
    failure: undefined,
    payload: undefined,
  };
  try {
    for await (const event of target.client.stream(request, { signal })) {
      if (event.type === 'text-delta') parser.push(event.text);
      else if (event.type === 'usage') attempt.usage = event.usage;
      else if (event.type === 'finish') attempt.stopReason = event.rawStopReason ?? event.stopReason;
    }
    parser.end();
    const slot = parser.result;
    if (slot.found) attempt.payload = slot.payload.trim();
    else attempt.failure = `no <ai-agent-${nonce}-FINAL> wrapper in the answer`;
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    attempt.failure = failureText(error);
  }
  return attempt;
}

/** The `llm` accounting entry of one attempt. */
function attemptAccounting(
  target: ModelTarget,
  { usage, stopReason, failure }: Attempt,
  latency: number,
  reporting: CallReporting,
): AccountingEntry {
  return {
    type: 'llm',
    timestamp: reporting.now(),
    status: failure === undefined ? 'ok' : 'failed',
    latency,
    provider: target.client.provider,
    model: target.client.model,
    tokens: {
      inputTokens: usage?.inputTokens ?? 0,
      outputTokens: usage?.outputTokens ?? 0,
      ...(usage?.cachedTokens === undefined ? {} : { cachedTokens: usage.cachedTokens }),
      totalTokens: usage?.totalTokens ?? (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0),
    },
    ...(usage?.costUsd === undefined ? {} : { costUsd: usage.costUsd }),
    ...(stopReason === undefined ? {} : { stopReason }),
    ...(failure === undefined ? {} : { error: failure }),
    ...(reporting.agentPath === undefined ? {} : { agentPath: reporting.agentPath }),
  };
}

/** The log entry of one attempt: answered in so many ms, or why it failed. */
function attemptLog(
  target: ModelTarget,
  { usage, failure }: Attempt,
  latency: number,
  label: CallLabel,
): Omit<LogEntry, 'timestamp'> {
  return {
    severity: failure === undefined ? 'VRB' : 'WRN',
    direction: 'response',
    type: 'llm',
    remoteIdentifier: identifier(target),
    message:
      failure === undefined
        ? `tool_output ${label}: answered in ${latency} ms`
        : `tool_output ${label}: failed (${failure})`,
    details: {
      call: label,
      input_tokens: usage?.inputTokens ?? 0,
      output_tokens: usage?.outputTokens ?? 0,
      latency_ms: latency,
    },
  };
}

/**
 * One extraction call: straight to a `ModelClient` (no session), trying the targets in order.
 * The answer must come in `<ai-agent-<nonce>-FINAL format="text">`; the closing tag is optional.
 * Every attempt leaves an `llm` accounting entry with the tokens of its usage events. Throws
 * `StrategyError` when no target gave a wrapped answer; rethrows when `signal` was aborted.
 */
export async function callExtractionModel(
  targets: readonly ModelTarget[],
  request: ModelRequest,
  nonce: string,
  label: CallLabel,
  signal: AbortSignal,
  reporting: CallReporting,
): Promise<ExtractionAnswer> {
  const failures: string[] = [];
  for (const target of targets) {
    signal.throwIfAborted();
    const started = reporting.now();
    const attempt = await attemptTarget(target, request, nonce, signal);
    const latency = reporting.now() - started;
    reporting.account(attemptAccounting(target, attempt, latency, reporting));
    reporting.log(attemptLog(target, attempt, latency, label));
    if (attempt.failure === undefined && attempt.payload !== undefined) {
      return { text: attempt.payload, provider: target.client.provider, model: target.client.model };
    }
    failures.push(`${identifier(target)}: ${attempt.failure}`);
  }
  throw new StrategyError(`every extraction model failed the ${label} call (${failures.join('; ')})`);
}
