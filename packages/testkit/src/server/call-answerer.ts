import type { IncomingMessage } from 'node:http';
import { abortableSleep } from '@agent/protocol/util';
import { planAnswer } from '../answer-plan.js';
import { type StepQueue, UnplannedCallError } from '../step-queue.js';
import type { RecordedRequest, ScriptedAnswer, ScriptedFault } from '../steps.js';
import { renderAnthropic } from './anthropic.js';
import { errorAnswer, testkitErrorAnswer } from './faults.js';
import { renderChat } from './openai-chat.js';
import { renderResponses } from './openai-responses.js';
import type { RenderContext } from './render-context.js';
import { ReplayError, replayAnswer } from './replay.js';
import { type DecodedRequest, decodeRequest } from './request-decoding.js';
import { JSON_HEADERS, type WireApi } from './sse.js';
import { checkStrict, type Flavour, type StrictOptions, type StrictViolation } from './strict/index.js';
import type { WireAnswer } from './wire-answer.js';

/** A wire answer with how to play it. */
export interface CallOutcome {
  wire: WireAnswer;
  fault?: ScriptedFault;
  tokenDelayMs?: number;
}

export interface CallAnswererOptions {
  source:
    | { queue: StepQueue }
    | { handler: (request: RecordedRequest) => ScriptedAnswer | Promise<ScriptedAnswer> };
  fixturesDir: string;
  /** Where every received call is recorded. */
  requests: RecordedRequest[];
  /** Refuse what the real API refuses (see `strict/`); undefined: take every request. */
  strict?: StrictOptions;
}

const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'api-key', 'proxy-authorization']);

/** Request headers with the secrets replaced by `[redacted]`. */
export function recordHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers[name] = SECRET_HEADERS.has(name) ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Mistral's tool-call ids: exactly 9 letters and digits. */
const mistralToolId = (callNumber: number, index: number): string =>
  `tk${callNumber.toString(36)}c${(index + 1).toString(36)}0000000`.slice(0, 9);

function render(
  api: WireApi,
  answer: ScriptedAnswer,
  decoded: DecodedRequest,
  callNumber: number,
  flavour: Flavour | undefined,
): WireAnswer {
  const plan = planAnswer(answer, {
    messages: decoded.messages,
    tools: decoded.tools,
    toolIdPrefix: api === 'anthropic' ? 'toolu_testkit_' : 'call_testkit_',
    ...(flavour === 'mistral' ? { toolId: mistralToolId } : {}),
    callNumber,
    streaming: decoded.streaming,
  });
  const context: RenderContext = {
    api,
    model: decoded.model === '' ? 'scripted-model' : decoded.model,
    requestId: `req_testkit_${callNumber}`,
    inputTokens: plan.usage.inputTokens,
    streaming: decoded.streaming,
    callNumber,
    created: Math.floor(Date.now() / 1000),
    includeUsage: decoded.includeUsage,
    ...(flavour === undefined ? {} : { flavour }),
    ...(decoded.clientToolSearch ? { clientToolSearch: true } : {}),
  };
  if (answer.error !== undefined) {
    if (answer.error.midStream !== true || !decoded.streaming) return errorAnswer(answer.error, context);
    context.midStreamError = answer.error;
  }
  if (api === 'openai-chat') return renderChat(plan, answer, context);
  if (api === 'openai-responses') return renderResponses(plan, context);
  return renderAnthropic(plan, context);
}

/** A strict-mode refusal as the API sends it, with its request id. */
function rejection(api: WireApi, violation: StrictViolation, requestId: string): WireAnswer {
  const anthropic = api === 'anthropic';
  const body = anthropic ? { ...violation.body, request_id: requestId } : violation.body;
  return {
    type: 'body',
    status: violation.status,
    headers: { ...JSON_HEADERS, [anthropic ? 'request-id' : 'x-request-id']: requestId },
    body: JSON.stringify(body),
  };
}

/**
 * Answers model calls: reads and records the request, refuses it in strict mode when the API
 * would (no step is used: the API never reached the model), takes the next step (or asks the
 * handler), waits its delay, and renders it for the API (or loads the replayed recording).
 */
export function createCallAnswerer(options: CallAnswererOptions) {
  let handlerCalls = 0;
  const take = async (recorded: RecordedRequest): Promise<{ callNumber: number; answer: ScriptedAnswer }> => {
    if ('queue' in options.source) return options.source.queue.take(recorded);
    handlerCalls += 1;
    const callNumber = handlerCalls;
    return { callNumber, answer: await options.source.handler(recorded) };
  };

  let rejections = 0;

  async function answerCall(
    api: WireApi,
    req: IncomingMessage,
    signal: AbortSignal,
    prefixes: PathPrefixes = {},
  ): Promise<CallOutcome> {
    const { flavour } = prefixes;
    const { text, body, decoded, recorded, route } = await readAndRecord(api, req, prefixes);
    options.requests.push(recorded);
    if (typeof body === 'string') {
      const message = `agent-testkit server: the body of ${route} is not JSON: ${JSON.stringify(text.slice(0, 80))}`;
      return { wire: testkitErrorAnswer(api, 400, message, 'req_testkit_invalid') };
    }
    const violation =
      options.strict === undefined ? undefined : checkStrict(api, flavour, body, options.strict, req.headers);
    if (violation !== undefined) {
      recorded.rejected = { status: violation.status, message: violation.message };
      rejections += 1;
      return { wire: rejection(api, violation, `req_testkit_rejected_${rejections}`) };
    }
    let taken: { callNumber: number; answer: ScriptedAnswer };
    try {
      taken = await take(recorded);
    } catch (error) {
      const message =
        error instanceof UnplannedCallError
          ? `${error.message} - ${route}`
          : `agent-testkit server: the ${'queue' in options.source ? 'step function' : 'handler'} threw for ${route}: ${(error as Error).message}`;
      return { wire: testkitErrorAnswer(api, 500, message, 'req_testkit_unplanned') };
    }
    const { callNumber, answer } = taken;
    const pacing = {
      ...(answer.fault === undefined ? {} : { fault: answer.fault }),
      ...(answer.tokenDelayMs === undefined ? {} : { tokenDelayMs: answer.tokenDelayMs }),
    };
    await abortableSleep(answer.delayMs ?? 0, signal);
    return rendered(api, { answer, decoded, callNumber, pacing, fixturesDir: options.fixturesDir }, flavour);
  }

  return {
    answerCall,
    /** Model calls taken so far, from the queue or the handler. */
    calls: () => ('queue' in options.source ? options.source.queue.calls : handlerCalls),
  };
}

/** What the path said before the route: the client's scope and the server flavour. */
export interface PathPrefixes {
  scope?: string | undefined;
  flavour?: Flavour | undefined;
}

/** The request read, parsed (a body that is not JSON stays its text) and recorded as the model saw it. */
async function readAndRecord(api: WireApi, req: IncomingMessage, { scope, flavour }: PathPrefixes) {
  const text = await readBody(req);
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Recorded as the raw text and answered with a 400.
  }
  const decoded = decodeRequest(api, body);
  const route = `${req.method} ${req.url}`;
  const { model, messages, tools, options: callOptions } = decoded;
  const recorded: RecordedRequest = {
    api,
    model,
    messages,
    tools,
    options: callOptions,
    body,
    headers: recordHeaders(req),
    route,
    ...(flavour === undefined ? {} : { flavour }),
    ...(scope === undefined ? {} : { scope }),
  };
  return { text, body, decoded, recorded, route };
}

/** The step's answer rendered for the API, or its replayed recording (a 500 when that cannot load). */
async function rendered(
  api: WireApi,
  step: {
    answer: ScriptedAnswer;
    decoded: ReturnType<typeof decodeRequest>;
    callNumber: number;
    pacing: Omit<CallOutcome, 'wire'>;
    fixturesDir: string;
  },
  flavour: Flavour | undefined,
): Promise<CallOutcome> {
  const { answer, decoded, callNumber, pacing } = step;
  if (answer.replay === undefined)
    return { wire: render(api, answer, decoded, callNumber, flavour), ...pacing };
  try {
    return {
      wire: await replayAnswer(answer.replay, api, step.fixturesDir, `req_testkit_${callNumber}`),
      ...pacing,
    };
  } catch (error) {
    if (!(error instanceof ReplayError)) throw error;
    return {
      wire: testkitErrorAnswer(
        api,
        500,
        `agent-testkit server: ${error.message}`,
        `req_testkit_${callNumber}`,
      ),
    };
  }
}
