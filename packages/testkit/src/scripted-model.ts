import type { ModelCallOptions, ModelClient, ModelRequest, ModelStreamEvent } from '@agent/protocol';
import { AgentError, ModelError } from '@agent/protocol';
import { answerEvents } from './answer-events.js';
import { planAnswer } from './answer-plan.js';
import { CallControl } from './call-control.js';
import { StepQueue } from './step-queue.js';
import type { RecordedRequest, ScriptedAnswer, ScriptedError, ScriptStep } from './steps.js';

export interface ScriptedModelOptions {
  /** Provider key the client reports (default `scripted`). */
  provider?: string;
  /** Model name the client reports and records (default `scripted-model`). */
  model?: string;
}

/** An in-process `ModelClient` that answers each call with the next scripted step. */
export interface ScriptedModel extends ModelClient {
  /** Every call as the model saw it, in order (the unplanned ones included). */
  readonly requests: readonly RecordedRequest[];
  /** Calls made so far. */
  readonly calls: number;
  /** Planned steps not used yet. */
  readonly remaining: number;
  /** Plans more calls after the ones already scripted. */
  push(...steps: ScriptStep[]): void;
  /** Throws when planned steps were left unused, naming how many. */
  assertAllConsumed(): void;
}

function recordRequest(model: string, request: ModelRequest, options: ModelCallOptions): RecordedRequest {
  const { messages, tools, ...rest } = request;
  return {
    api: 'in-process',
    model,
    // A snapshot of the array: the session keeps appending to its conversation after the call.
    messages: [...messages],
    tools: [...(tools ?? [])],
    options: rest,
    callOptions: {
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      signal: options.signal !== undefined,
    },
  };
}

/**
 * A scripted model: call N gets step N. A step is a `ScriptedAnswer` or a (sync or async)
 * function of the recorded request returning one. See `docs/testkit.md` for the event order.
 */
export function scriptedModel(
  steps: readonly ScriptStep[],
  options: ScriptedModelOptions = {},
): ScriptedModel {
  const script: Script = {
    names: { provider: options.provider ?? 'scripted', model: options.model ?? 'scripted-model' },
    queue: new StepQueue('scriptedModel', steps),
    requests: [],
  };
  const { queue } = script;
  return {
    ...script.names,
    requests: script.requests,
    get calls() {
      return queue.calls;
    },
    get remaining() {
      return queue.remaining;
    },
    stream: (request, callOptions = {}) => streamCall(script, request, callOptions),
    push: (...more) => queue.push(...more),
    assertAllConsumed: () => queue.assertAllConsumed(),
  };
}

type ClientNames = { provider: string; model: string };

/** What every call of one scripted model shares. */
interface Script {
  names: ClientNames;
  queue: StepQueue;
  requests: RecordedRequest[];
}

/** One call: record it, take its step, then play the answer (or its error, delay or hang). */
async function* streamCall(
  script: Script,
  request: ModelRequest,
  callOptions: ModelCallOptions,
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const { names } = script;
  // The number the step queue will give this call; error messages name it even before it is taken.
  let callNumber = script.queue.calls + 1;
  const control = new CallControl(callOptions, (what) =>
    stoppedCallError(what, callNumber, callOptions.timeoutMs, names),
  );
  try {
    control.check();
    const recorded = recordRequest(names.model, request, callOptions);
    script.requests.push(recorded);
    const taken = await script.queue.take(recorded);
    callNumber = taken.callNumber;
    const answer = taken.answer;
    const streaming = request.stream !== false;
    const plan = planInProcessAnswer(answer, request, callNumber, streaming);
    await control.sleep(answer.delayMs ?? 0);
    if (answer.error !== undefined && answer.error.midStream !== true)
      throw scriptedError(answer.error, callNumber, names);
    if (answer.fault === 'hang' || answer.fault === 'hang-after-headers') await control.waitUntilStopped();

    yield* playEvents(plan, answer, { callNumber, streaming, control, names });
  } finally {
    control.dispose();
  }
}

/** The plan of an answer played in process; a replay step needs the HTTP server and is refused. */
function planInProcessAnswer(
  answer: ScriptedAnswer,
  request: ModelRequest,
  callNumber: number,
  streaming: boolean,
): ReturnType<typeof planAnswer> {
  const plan = planAnswer(answer, {
    messages: request.messages,
    ...(request.tools === undefined ? {} : { tools: request.tools }),
    toolIdPrefix: 'call_',
    callNumber,
    streaming,
  });
  if (answer.replay !== undefined) {
    throw new AgentError(
      'replay_needs_server',
      `scriptedModel: call #${callNumber} is a replay step (${answer.replay}); replays need startModelServer`,
    );
  }
  return plan;
}

/** The error a call ends with when its caller aborts it or its `timeoutMs` passes. */
function stoppedCallError(
  what: 'aborted' | 'timeout',
  callNumber: number,
  timeoutMs: number | undefined,
  names: ClientNames,
): ModelError {
  return new ModelError({
    kind: what,
    message:
      what === 'timeout'
        ? `scriptedModel: call #${callNumber} timed out after ${timeoutMs}ms`
        : `scriptedModel: call #${callNumber} was aborted by the caller`,
    ...names,
  });
}

function scriptedError(error: ScriptedError, callNumber: number, names: ClientNames): ModelError {
  return new ModelError({
    kind: error.kind,
    message: error.message ?? `scriptedModel: call #${callNumber} failed with a scripted ${error.kind} error`,
    ...(error.message === undefined ? {} : { providerMessage: error.message }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    ...(error.status === undefined ? {} : { status: error.status }),
    ...names,
  });
}

function faultError(
  kind: 'network' | 'invalid_response',
  callNumber: number,
  names: ClientNames,
): ModelError {
  return new ModelError({
    kind,
    message:
      kind === 'network'
        ? `scriptedModel: call #${callNumber}: the stream was cut (scripted cut-stream fault)`
        : `scriptedModel: call #${callNumber}: the stream carried data that is not JSON (scripted malformed-sse fault)`,
    ...names,
  });
}

/**
 * The answer's events, paced by `tokenDelayMs` when streaming; a mid-stream error or a
 * cut-stream / malformed-sse fault ends them where a provider client would.
 */
async function* playEvents(
  plan: ReturnType<typeof planAnswer>,
  answer: ScriptedAnswer,
  at: { callNumber: number; streaming: boolean; control: CallControl; names: ClientNames },
): AsyncGenerator<ModelStreamEvent, void, undefined> {
  const { callNumber, control, names } = at;
  const { events, textEnd } = answerEvents(plan, callNumber);
  // What a provider client makes of a broken stream: a cut is a network failure, bad data an invalid response.
  const cutAt =
    answer.fault === 'cut-stream'
      ? Math.max(1, Math.floor(events.length / 2))
      : answer.fault === 'malformed-sse'
        ? 1
        : -1;
  const gap = at.streaming ? (answer.tokenDelayMs ?? 0) : 0;
  let paced = 0;
  for (const [index, planned] of events.entries()) {
    if (index === textEnd && answer.error !== undefined) throw scriptedError(answer.error, callNumber, names);
    if (index === cutAt)
      throw faultError(answer.fault === 'cut-stream' ? 'network' : 'invalid_response', callNumber, names);
    if (planned.paced) {
      if (paced > 0) await control.sleep(gap);
      paced += 1;
    }
    yield planned.event;
    control.check();
  }
}
