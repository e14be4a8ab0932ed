import {
  type ExpectedOutput,
  isModelError,
  type LlmAccountingEntry,
  ModelError,
  type ModelRequest,
  type ModelStreamEvent,
  type ModelTarget,
  type OpNode,
  type ReasoningPart,
  type StopReason,
  type TokenUsage,
  type ToolCall,
} from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { GuardrailRunner } from '../guardrails/guardrail-runner.js';
import { StreamGuard } from '../guardrails/stream-guard.js';
import { JournalAnswerClient } from '../journal/journal-answer-client.js';
import type { OpTreeBuilder } from '../observe/op-tree.js';
import type { SessionRecorder } from '../observe/recorder.js';
import { AttemptAnswer } from './attempt-answer.js';
import type { SessionCancel } from './session-cancel.js';
import type { SlotOutcome } from './slot-reader.js';
import { StreamDrain } from './stream-drain.js';

export interface AttemptSuccess {
  ok: true;
  /** Everything the model wrote, as written (the conversation keeps it verbatim). */
  text: string;
  reasoning: ReasoningPart[];
  toolCalls: ToolCall[];
  usage: TokenUsage | undefined;
  stopReason: StopReason | undefined;
  rawStopReason: string | undefined;
  slot: SlotOutcome;
  latencyMs: number;
  /** The model call's accounting entry (the turn journal keeps it with the answer). */
  accounting: LlmAccountingEntry;
  /** The answer was replayed from the turn journal by a resumed session: no model was called. */
  replayed: boolean;
}

export interface AttemptFailure {
  ok: false;
  error: ModelError;
  latencyMs: number;
}

export type AttemptOutcome = AttemptSuccess | AttemptFailure;

export interface AttemptContext {
  recorder: SessionRecorder;
  opTree: OpTreeBuilder;
  nonce: string;
  /** The report the session asks for: decides whether the report's body streams live. */
  expected: ExpectedOutput;
  /** The session's cancellation: its signal goes to the client, and it tells the attempt directly. */
  cancel: SessionCancel;
  timeoutMs: number;
  agentPath: string;
  now: () => number;
  /** Set when the session has guardrails (its `stream` checks hold report text until they pass). */
  guards?: GuardrailRunner;
}

/**
 * One call to one target: streams the answer through the FINAL-slot reader (the content of a
 * text-format report goes out as `output` events while it arrives, text outside it as
 * `assistant_text`, reasoning as `thinking`),
 * collects tool calls, and records the LLM accounting entry whatever happens. An answer that
 * breaks off retracts the report text it streamed (`output_retracted`). Never throws.
 */
export async function runModelAttempt(
  target: ModelTarget,
  request: ModelRequest,
  context: AttemptContext,
  turnNode: OpNode,
  attempt: number,
  /** The answer's text may become the report (a final turn): its outside text is held. */
  holdOutside: boolean,
  /** Set when input guardrails run beside this call: aborted when they trip. */
  stop?: AbortSignal,
): Promise<AttemptOutcome> {
  const { client } = target;
  const scope = new AttemptScope(target, context, turnNode, attempt);
  // The client gets the session's own signal and the timeout; the attempt makes no controller (a
  // provider client makes one per call for its SDK, which closes the HTTP request on abort).
  // A client that ignores both is still stopped: the watchdog ends our wait a second later.
  const drain = new StreamDrain<ModelStreamEvent>();
  let watchdogFired = false;
  const watchdog = setTimeout(() => {
    watchdogFired = true;
    drain.stop(
      new ModelError({
        kind: 'timeout',
        message: `no answer within ${context.timeoutMs} ms`,
        provider: client.provider,
        model: client.model,
      }),
    );
  }, context.timeoutMs + 1_000);
  const onSessionAbort = () => drain.stop(context.cancel.signal.reason);
  context.cancel.add(onSessionAbort);
  const answer = new AttemptAnswer(
    context.nonce,
    context.recorder,
    context.expected,
    scope,
    holdOutside,
    streamGuardOf(context, turnNode),
  );
  const onStop =
    stop === undefined
      ? undefined
      : () =>
          drain.stop(
            new ModelError({
              kind: 'aborted',
              message: 'an input guardrail stopped the call',
              provider: client.provider,
              model: client.model,
            }),
          );
  if (onStop !== undefined) stop?.addEventListener('abort', onStop, { once: true });
  scope.log(
    'VRB',
    'request',
    `attempt ${attempt}: ${request.messages.length} messages, ${request.tools?.length ?? 0} tools`,
  );
  try {
    const signal =
      stop === undefined ? context.cancel.signal : AbortSignal.any([context.cancel.signal, stop]);
    const stream = client.stream(request, { signal, timeoutMs: context.timeoutMs });
    const iterator = stream[Symbol.asyncIterator]();
    try {
      await drain.run(iterator, answer.take);
    } finally {
      if (watchdogFired || signal.aborted) void iterator.return?.()?.catch(() => {});
    }
    if (answer.guard !== undefined) await answer.guard.finish();
    return attemptSucceeded(scope, answer);
  } catch (thrown) {
    return attemptFailed(scope, answer, thrown);
  } finally {
    clearTimeout(watchdog);
    context.cancel.delete(onSessionAbort);
    if (onStop !== undefined) stop?.removeEventListener('abort', onStop);
  }
}

/** The attempt's stream guard, when the session has `stream` guardrails. */
function streamGuardOf(context: AttemptContext, turnNode: OpNode): StreamGuard | undefined {
  const { guards, recorder } = context;
  if (guards === undefined || !guards.checks('stream')) return undefined;
  return new StreamGuard(guards, turnNode, (text) => recorder.emit({ type: 'output', text }, 'stream'));
}

/**
 * What an attempt's ending records to: its target, context, attempt number, op node, start and
 * log (a class: its log lines need no closures made per attempt).
 */
class AttemptScope {
  /** `provider:model`, the log lines' remote identifier. */
  readonly label: string;
  readonly node: OpNode;
  readonly started: number;

  constructor(
    readonly target: ModelTarget,
    readonly context: AttemptContext,
    turnNode: OpNode,
    readonly attempt: number,
  ) {
    this.label = `${target.client.provider}:${target.client.model}`;
    this.node = context.opTree.begin(turnNode, 'llm', this.label);
    this.started = context.now();
  }

  log(severity: 'VRB' | 'WRN' | 'THK', direction: 'request' | 'response', message: string): void {
    this.context.recorder.line(severity, direction, 'llm', this.label, message);
  }

  /** A provider's notice, said in the attempt's log. */
  logNotice(message: string): void {
    this.log('VRB', 'request', `attempt ${this.attempt}: ${message}`);
  }
}

/** The answer came whole: its thinking logged, its accounting recorded, its parts handed on. */
function attemptSucceeded(scope: AttemptScope, answer: AttemptAnswer): AttemptSuccess {
  const { context } = scope;
  const { slot, thinking } = answer.end();
  const latencyMs = context.now() - scope.started;
  if (thinking.length > 0) scope.log('THK', 'response', thinking);
  const { usage, stopReason, rawStopReason, toolCalls } = answer;
  const live = llmEntry(scope, 'ok', latencyMs, usage, {
    stopReason: rawStopReason ?? stopReason,
    actualProvider: answer.actualProvider,
    actualModel: answer.actualModel,
  });
  const { client } = scope.target;
  const journaled = client instanceof JournalAnswerClient ? client : undefined;
  const entry = journaled === undefined ? live : journaled.accounting(live);
  context.recorder.account(entry);
  context.opTree.end(scope.node, 'ok', entry);
  scope.log(
    'VRB',
    'response',
    `attempt ${scope.attempt}: ${entry.tokens.inputTokens} in, ${entry.tokens.outputTokens} out, ${toolCalls.length} tool calls, stop ${rawStopReason ?? stopReason ?? 'unknown'}, ${latencyMs} ms`,
  );
  return {
    ok: true,
    text: slot.fullText,
    reasoning: journaled === undefined ? answer.reasoning : [...journaled.reasoning],
    toolCalls,
    usage,
    stopReason,
    rawStopReason,
    slot,
    latencyMs,
    accounting: entry,
    replayed: journaled !== undefined,
  };
}

/** The answer broke off (or never came): what it streamed is retracted, the failure recorded. */
function attemptFailed(scope: AttemptScope, answer: AttemptAnswer, thrown: unknown): AttemptFailure {
  const { context } = scope;
  const { client } = scope.target;
  const error = context.cancel.signal.aborted
    ? new ModelError({
        kind: 'aborted',
        message: 'the session was cancelled',
        provider: client.provider,
        model: client.model,
      })
    : toModelError(thrown, client.provider, client.model);
  answer.reader.abandon(error.kind, `the answer broke off: ${error.kind}: ${error.message}`);
  const latencyMs = context.now() - scope.started;
  const entry = llmEntry(scope, 'failed', latencyMs, answer.usage, {
    error: `${error.kind}: ${error.message}`,
  });
  context.recorder.account(entry);
  context.opTree.end(scope.node, 'failed', entry, error.kind);
  scope.log(
    error.kind === 'aborted' ? 'VRB' : 'WRN',
    'response',
    `attempt ${scope.attempt} failed: ${error.kind}${error.status === undefined ? '' : ` (HTTP ${error.status})`}: ${error.message}`,
  );
  return { ok: false, error, latencyMs };
}

/** What an `llm` accounting entry is made for: a target's call, its attempt number, the session's parts. */
export interface LlmEntryScope {
  target: ModelTarget;
  attempt: number;
  context: Pick<AttemptContext, 'now' | 'recorder' | 'agentPath'>;
}

/** The `llm` accounting entry of one call. */
export function llmEntry(
  scope: LlmEntryScope,
  status: 'ok' | 'failed',
  latency: number,
  usage: TokenUsage | undefined,
  extra: {
    stopReason?: string | undefined;
    actualProvider?: string | undefined;
    actualModel?: string | undefined;
    error?: string;
  },
): LlmAccountingEntry {
  const { context, target } = scope;
  // Optional fields set one by one: a conditional spread per field cost an object each, per call.
  const tokens: LlmAccountingEntry['tokens'] = {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    totalTokens: usage?.totalTokens ?? (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0),
  };
  if (usage?.cachedTokens !== undefined) tokens.cachedTokens = usage.cachedTokens;
  if (usage?.cacheWriteTokens !== undefined) tokens.cacheWriteTokens = usage.cacheWriteTokens;
  if (usage?.reasoningTokens !== undefined) tokens.reasoningTokens = usage.reasoningTokens;
  const entry: LlmAccountingEntry = {
    type: 'llm',
    timestamp: context.now(),
    status,
    latency,
    provider: target.client.provider,
    model: target.client.model,
    tokens,
    turn: context.recorder.turn,
    attempt: scope.attempt,
    agentPath: context.agentPath,
  };
  if (usage?.costUsd !== undefined) entry.costUsd = usage.costUsd;
  if (usage?.upstreamInferenceCostUsd !== undefined)
    entry.upstreamInferenceCostUsd = usage.upstreamInferenceCostUsd;
  if (extra.stopReason !== undefined) entry.stopReason = extra.stopReason;
  if (extra.actualProvider !== undefined) entry.actualProvider = extra.actualProvider;
  if (extra.actualModel !== undefined) entry.actualModel = extra.actualModel;
  if (extra.error !== undefined) entry.error = extra.error;
  return entry;
}

/** Anything a client throws becomes a ModelError; a plain Error is a network-class failure. */
export function toModelError(value: unknown, provider: string, model: string): ModelError {
  if (isModelError(value)) return value;
  if (value instanceof Error && value.name === 'AbortError') {
    return new ModelError({
      kind: 'aborted',
      message: 'the call was cancelled',
      provider,
      model,
      cause: value,
    });
  }
  const message = errorMessage(value);
  return new ModelError({
    kind: 'network',
    message: `the model client failed: ${message}`,
    provider,
    model,
    cause: value,
  });
}
