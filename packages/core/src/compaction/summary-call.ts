import type { ModelRequest, ModelStreamEvent, ModelTarget, OpNode, TokenUsage } from '@agent/protocol';
import { ModelError } from '@agent/protocol';
import { llmEntry, toModelError } from '../loop/model-attempt.js';
import type { SessionCancel } from '../loop/session-cancel.js';
import { StreamDrain } from '../loop/stream-drain.js';
import type { OpTreeBuilder } from '../observe/op-tree.js';
import type { SessionRecorder } from '../observe/recorder.js';

/** What a summary call records to and is stopped by. */
export interface SummaryCallContext {
  recorder: SessionRecorder;
  opTree: OpTreeBuilder;
  cancel: SessionCancel;
  timeoutMs: number;
  agentPath: string;
  now: () => number;
}

export type SummaryCallOutcome = { ok: true; text: string } | { ok: false; error: string };

/**
 * One summary call, straight to the target's client (no FINAL slot, nothing streamed to the
 * user): honours the session's signal and `timeoutMs` (a watchdog a second later stops a client
 * that ignores both), accounted as an `llm` entry with `purpose: 'compaction'` under `parent`.
 * An empty answer is a failed call. Never throws.
 */
export async function callSummary(
  target: ModelTarget,
  request: ModelRequest,
  context: SummaryCallContext,
  parent: OpNode,
  attempt: number,
): Promise<SummaryCallOutcome> {
  const { client } = target;
  const label = `${client.provider}:${client.model}`;
  const node = context.opTree.begin(parent, 'llm', label);
  const started = context.now();
  const drain = new StreamDrain<ModelStreamEvent>();
  const watchdog = setTimeout(() => {
    const message = `no answer within ${context.timeoutMs} ms`;
    drain.stop(new ModelError({ kind: 'timeout', message, provider: client.provider, model: client.model }));
  }, context.timeoutMs + 1_000);
  const onSessionAbort = () => drain.stop(context.cancel.signal.reason);
  context.cancel.add(onSessionAbort);
  const answer = {
    text: [] as string[],
    usage: undefined as TokenUsage | undefined,
    stop: undefined as string | undefined,
  };
  let failure: string | undefined;
  try {
    const stream = client.stream(request, { signal: context.cancel.signal, timeoutMs: context.timeoutMs });
    const iterator = stream[Symbol.asyncIterator]();
    try {
      await drain.run(iterator, (event) => {
        if (event.type === 'text-delta') answer.text.push(event.text);
        else if (event.type === 'usage') answer.usage = event.usage;
        else if (event.type === 'finish') answer.stop = event.rawStopReason ?? event.stopReason;
      });
    } finally {
      void iterator.return?.()?.catch(() => {});
    }
  } catch (thrown) {
    const error = toModelError(thrown, client.provider, client.model);
    failure = `${error.kind}: ${error.message}`;
  } finally {
    clearTimeout(watchdog);
    context.cancel.delete(onSessionAbort);
  }
  const text = answer.text.join('').trim();
  if (failure === undefined && text === '') failure = 'the model answered with no summary text';
  const entry = llmEntry(
    { target, attempt, context },
    failure === undefined ? 'ok' : 'failed',
    context.now() - started,
    answer.usage,
    {
      stopReason: answer.stop,
      ...(failure === undefined ? {} : { error: failure }),
    },
  );
  entry.purpose = 'compaction';
  context.recorder.account(entry);
  context.opTree.end(node, failure === undefined ? 'ok' : 'failed', entry, failure);
  return failure === undefined ? { ok: true, text } : { ok: false, error: failure };
}
