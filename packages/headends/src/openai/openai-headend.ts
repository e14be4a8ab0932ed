import { randomUUID } from 'node:crypto';
import type { AgentEvent, AgentEventMeta, AgentResult } from '@agent/protocol';
import type { Context } from 'hono';
import type { SessionTicket } from '../admission.js';
import { admit, writeQueue } from '../admit.js';
import { guardrailTrip } from '../guardrail-trip.js';
import type { Headend } from '../headend.js';
import { createHeadendBase } from '../headend-base.js';
import type { HeadendOptions } from '../headend-options.js';
import { httpError, readJsonObject } from '../http-guards.js';
import { requestPrincipal } from '../principal.js';
import { type ReportDelta, ReportDeltas } from '../report-deltas.js';
import { resolveRequestedOutput } from '../schema-guard.js';
import { type SseStream, streamEvents } from '../sse-stream.js';
import { requestTraceparent } from '../trace-context.js';
import {
  answerText,
  failureMessage,
  inputRejection,
  type MismatchMarker,
  mismatchMarker,
  usageTotals,
} from '../usage.js';
import { type ChatRequest, parseChatRequest } from './chat-request.js';
import { openAiErrorBody, openAiGuardrailBody, respondOpenAi, respondOpenAiTrip } from './openai-errors.js';

function usageOf(result: AgentResult) {
  const totals = usageTotals(result);
  return {
    prompt_tokens: totals.inputTokens,
    completion_tokens: totals.outputTokens,
    total_tokens: totals.inputTokens + totals.outputTokens,
  };
}

/** OpenAI-compatible headend: `GET /v1/models`, `POST /v1/chat/completions` (streaming and not). */
export function createOpenAiHeadend(options: HeadendOptions): Headend {
  const { app, admission, tokens, headendId } = createHeadendBase('openai', options, {
    respond: respondOpenAi,
  });
  const created = () => Math.floor(Date.now() / 1000);

  app.get('/v1/models', (c) =>
    c.json({
      object: 'list',
      data: options.catalog.list().map((info) => ({
        id: info.name,
        object: 'model',
        created: 0,
        owned_by: 'agent',
        // Not OpenAI's field (clients ignore it): the agents chained around this one.
        ...(info.orchestration === undefined ? {} : { orchestration: info.orchestration }),
      })),
    }),
  );

  app.post('/v1/chat/completions', async (c) => {
    const read = await readJsonObject(c, respondOpenAi);
    if (!read.ok) return read.response;
    const request = await parseChatRequest(read.body);
    if (typeof request === 'string') return httpError(c, respondOpenAi, 'bad_request', request);
    const agent = options.catalog.get(request.model);
    if (agent === undefined) {
      const known = options.catalog.list().map((info) => info.name);
      return httpError(
        c,
        respondOpenAi,
        'not_found',
        `model "${request.model}" is not an agent of this server (known: ${known.join(', ') || 'none'})`,
      );
    }
    const output = resolveRequestedOutput(request, agent.info, {
      json: 'response_format json_object',
      schema: 'response_format.json_schema.schema',
    });
    if (typeof output === 'string') return httpError(c, respondOpenAi, 'bad_request', output);
    const admitted = await admit(c, admission, respondOpenAi);
    if (!admitted.ok) return admitted.response;
    const { ticket } = admitted;
    // Lowercased (it is already): randomUUID's text is a rope of a dozen nodes, and toLowerCase
    // hands back one flat string, kept for the whole stream.
    const id = `chatcmpl-${randomUUID()}`.toLowerCase();
    const input = { prompt: request.prompt, history: request.history };
    const base = {
      ...output,
      ...requestTraceparent(c),
      owner: requestPrincipal(c).id,
      ...(request.conversationId === undefined ? {} : { conversationId: request.conversationId }),
    };
    const run: Runner = (onEvent) => agent.run(input, { ...base, headendId, signal: ticket.signal, onEvent });
    const call: ChatCall = { request, id, created: created(), run, ticket };
    return request.stream ? streamChat(c, call) : answerChat(c, call);
  });

  return { kind: 'openai', app, admission, authRequired: tokens !== undefined };
}

/** The end of a chunk that does not finish the stream. */
const OPEN_TAIL = ',"logprobs":null,"finish_reason":null}]}';

type Runner = (onEvent: (event: AgentEvent, meta: AgentEventMeta) => void) => Promise<AgentResult>;

/** One admitted chat completion: the request, the completion's id and time, its run and ticket. */
interface ChatCall {
  request: ChatRequest;
  id: string;
  created: number;
  run: Runner;
  ticket: SessionTicket;
}

/** The whole completion once the run ends: the report as the message, the master's thinking as `reasoning_content`. */
async function answerChat(c: Context, call: ChatCall): Promise<Response> {
  const { request, id, created, run, ticket } = call;
  try {
    const reasoning: string[] = [];
    const result = await run((event, meta) => {
      if (event.type === 'thinking' && meta.isMaster && meta.source !== 'replay') reasoning.push(event.text);
    });
    const rejection = inputRejection(result);
    if (rejection !== undefined) return httpError(c, respondOpenAi, 'bad_request', rejection);
    const trip = guardrailTrip(result);
    if (trip !== undefined) return respondOpenAiTrip(c, trip);
    const text = answerText(result);
    if (text === undefined) return httpError(c, respondOpenAi, 'server_error', failureMessage(result));
    const message: Record<string, unknown> = { role: 'assistant', content: text, refusal: null };
    if (reasoning.length > 0) message.reasoning_content = reasoning.join('');
    const agentField = mismatchMarker(result);
    return c.json({
      id,
      object: 'chat.completion',
      created,
      model: request.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: 'stop' }],
      usage: usageOf(result),
      // Not OpenAI's field (clients keep it): the report missed its schema (docs/headends.md).
      ...(agentField === undefined ? {} : { agent: agentField }),
    });
  } finally {
    ticket.release();
  }
}

/** The completion as `chat.completion.chunk` events while the run goes, then `[DONE]`. */
function streamChat(c: Context, call: ChatCall): Response {
  return streamEvents(c, {}, (stream) => streamCompletion(stream, call));
}

/** A chunk queue: where a completion's chunks go, in order. */
type ChunkWrites = ReturnType<typeof writeQueue>;

/**
 * Runs the call, writing the report's deltas as chunks (a withdrawn answer stops the run and
 * ends the stream with an error), then the stream's end.
 */
async function streamCompletion(stream: SseStream, call: ChatCall): Promise<void> {
  const { ticket } = call;
  stream.onAbort(() => ticket.abort('client disconnected'));
  try {
    const writes = writeQueue(stream);
    const head = chunkHead(call);
    writeChunk(writes, head, { role: 'assistant', content: '' });
    const deltas = new ReportDeltas();
    const result = await call.run(
      deltas.listener(
        (delta) => writeDelta(writes, head, delta),
        (why) => ticket.abort(why),
      ),
    );
    writeEnd(writes, head, call, deltas, result);
    await writes.flush();
  } finally {
    ticket.release();
  }
}

/**
 * A chunk's JSON before its delta, made once per stream (the same text JSON.stringify gives
 * for { id, object, created, model, choices: [{ index, delta, logprobs, finish_reason }] }).
 * Joined, not a template: one flat string, not a rope walked again by every chunk's write.
 */
function chunkHead(call: ChatCall): string {
  return [
    '{"id":',
    JSON.stringify(call.id),
    ',"object":"chat.completion.chunk","created":',
    call.created,
    ',"model":',
    JSON.stringify(call.request.model),
    ',"choices":[{"index":0,"delta":',
  ].join('');
}

/**
 * A chunk carrying `delta` (the last one with a `finish_reason`, and the `agent` field of a
 * schema-mismatched answer), pushed as one data line.
 */
function writeChunk(
  writes: ChunkWrites,
  head: string,
  delta: Record<string, unknown>,
  finishReason: string | null = null,
  agent?: MismatchMarker,
): void {
  const agentField = agent === undefined ? '' : `,"agent":${JSON.stringify(agent)}`;
  writes.push(
    `${head}${JSON.stringify(delta)},"logprobs":null,"finish_reason":${JSON.stringify(finishReason)}}]${agentField}}`,
  );
}

/**
 * One report delta as its chunk. Content, the per-token chunk, is written as `writeChunk` writes
 * `{ content }`, without the delta object. JSON texts: pushed as data lines, not searched for
 * line breaks.
 */
function writeDelta(writes: ChunkWrites, head: string, delta: ReportDelta): void {
  if (delta.content !== undefined)
    writes.push(`${head}{"content":${JSON.stringify(delta.content)}}${OPEN_TAIL}`);
  if (delta.reasoning !== undefined) writeChunk(writes, head, { reasoning_content: delta.reasoning });
}

/**
 * The stream's end once the run settled: the text still owed, the `stop` chunk (with the `agent`
 * field when the report missed its schema) and the usage chunk (when asked for), or an error
 * when there is no answer (`guardrail_tripped` when a guardrail stopped the run); then `[DONE]`.
 */
function writeEnd(
  writes: ChunkWrites,
  head: string,
  call: ChatCall,
  deltas: ReportDeltas,
  result: AgentResult,
): void {
  const { withdrawn } = deltas;
  const trip = guardrailTrip(result);
  const text = withdrawn === undefined && trip === undefined ? answerText(result) : undefined;
  if (trip !== undefined) {
    // A guardrail stopped the run: its error, never the text it blocked (none of it was sent).
    writes.push({ data: JSON.stringify(openAiGuardrailBody(trip)) });
  } else if (text === undefined) {
    const message = withdrawn ?? failureMessage(result);
    writes.push({ data: JSON.stringify(openAiErrorBody('server_error', message)) });
  } else {
    const rest = deltas.remainder(text);
    if (rest !== undefined && rest !== '') writeChunk(writes, head, { content: rest });
    writeChunk(writes, head, {}, 'stop', mismatchMarker(result));
    if (call.request.includeUsage) writes.push({ data: JSON.stringify(usageChunk(call, result)) });
  }
  writes.push({ data: '[DONE]' });
}

/** The last chunk when the request asked for usage (`stream_options.include_usage`): no choices. */
function usageChunk(call: ChatCall, result: AgentResult) {
  return {
    id: call.id,
    object: 'chat.completion.chunk',
    created: call.created,
    model: call.request.model,
    choices: [],
    usage: usageOf(result),
  };
}
