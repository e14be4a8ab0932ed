import { A2A_VERSION_HEADER, type AgentCard } from '@a2a-js/sdk';
import { isLegacyJsonRpcMethod } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { type A2ARequestHandler, JsonRpcTransportHandler, validateVersion } from '@a2a-js/sdk/server';
import { errorMessage } from '@agent/protocol/util';
import type { Context } from 'hono';
import { type Admission, AdmissionError, type SessionTicket } from '../admission.js';
import { writeQueue } from '../admit.js';
import { requestPrincipal } from '../principal.js';
import { streamEvents } from '../sse-stream.js';
import { requestTraceparent } from '../trace-context.js';
import { callContext } from './a2a-caller.js';

/** One served agent's JSON-RPC endpoint: the SDK's handler, its card and what its executor runs. */
export interface AgentEndpoint {
  card: AgentCard;
  handler: A2ARequestHandler;
  isRunning(taskId: string): boolean;
  /** Stops a task's run that another process does (on `--queue`, its worker: `ServedSessions.cancel`). */
  stopElsewhere(taskId: string): Promise<void>;
}

const CANCEL_METHODS = new Set(['CancelTask', 'tasks/cancel']);

/** The task a cancel names when no run of this process does it (its run may be another face's). */
function cancelledElsewhere(body: Record<string, unknown>, endpoint: AgentEndpoint): string | undefined {
  if (!CANCEL_METHODS.has(String(body.method))) return undefined;
  const id = (body.params as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && id !== '' && !endpoint.isRunning(id) ? id : undefined;
}

/** The methods that start or continue a run: admitted before the SDK sees them. */
const SEND_METHODS = new Set(['SendMessage', 'SendStreamingMessage', 'message/send', 'message/stream']);

type JsonRpcError = { code: number; message: string; data?: unknown };

/** A JSON-RPC error response (status 200 as JSON-RPC has it, unless the HTTP layer refused the call). */
export function rpcError(c: Context, id: unknown, error: JsonRpcError, status = 200): Response {
  return c.json({ jsonrpc: '2.0', id: id ?? null, error }, status as 200);
}

function isAsyncIterable(value: unknown): value is AsyncGenerator<unknown> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown })?.[Symbol.asyncIterator] === 'function';
}

/** The request's task id when it continues one (`params.message.taskId` in both versions). */
function continuedTaskId(body: Record<string, unknown>): string | undefined {
  const params = body.params as { message?: { taskId?: unknown } } | undefined;
  const taskId = params?.message?.taskId;
  return typeof taskId === 'string' && taskId !== '' ? taskId : undefined;
}

/**
 * `POST /a2a/<agent>`: one JSON-RPC call, v1.0 (`SendMessage`, ...) or, when `legacy`, v0.3
 * (`message/send`, ...), answered as JSON or, for streaming methods, as SSE. Sends are admitted
 * first (429 with Retry-After when full); the run is not tied to the connection: a task goes on
 * when its client goes away (`CancelTask` stops it).
 */
export async function answerJsonRpc(
  c: Context,
  endpoint: AgentEndpoint,
  admission: Admission,
  legacy: boolean,
): Promise<Response> {
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch (error) {
    return rpcError(c, null, { code: -32700, message: `malformed JSON body: ${errorMessage(error)}` });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return rpcError(c, null, { code: -32600, message: 'the body must be one JSON-RPC request object' });
  }
  const request = body as Record<string, unknown>;
  const header = c.req.header(A2A_VERSION_HEADER);
  const useLegacy =
    legacy && (header === '0.3' || (header === undefined && isLegacyJsonRpcMethod(request.method)));
  const mapError = useLegacy
    ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError
    : JsonRpcTransportHandler.mapToJSONRPCError;
  const requestedVersion = header ?? (useLegacy ? '0.3' : '1.0');
  try {
    validateVersion(requestedVersion, endpoint.card, 'JSONRPC');
  } catch (error) {
    return rpcError(c, request.id, mapError(error));
  }
  let ticket: SessionTicket | undefined;
  if (SEND_METHODS.has(String(request.method))) {
    const taskId = continuedTaskId(request);
    if (taskId !== undefined && endpoint.isRunning(taskId)) {
      const why = `task ${taskId} is running and waits for no input: follow it with GetTask or SubscribeToTask, or stop it with CancelTask`;
      return rpcError(c, request.id, mapError(new UnsupportedOperationError(why)));
    }
    try {
      ticket = await admission.enter();
    } catch (error) {
      if (!(error instanceof AdmissionError)) throw error;
      const response = rpcError(
        c,
        request.id,
        { code: -32000, message: error.message },
        error.refusal === 'draining' ? 503 : 429,
      );
      response.headers.set('retry-after', String(error.retryAfterSeconds));
      return response;
    }
  }
  const state = { principal: requestPrincipal(c), ticket, ...requestTraceparent(c) };
  const context = callContext(state, requestedVersion);
  // A ticket the executor did not take (the SDK refused the call first) goes back here.
  const releaseUntaken = () => state.ticket?.release();
  const transport = useLegacy
    ? new LegacyJsonRpcTransportHandler(endpoint.handler)
    : new JsonRpcTransportHandler(endpoint.handler);
  const elsewhere = cancelledElsewhere(request, endpoint);
  let answer: unknown;
  try {
    answer = await transport.handle(request, context);
  } catch (error) {
    releaseUntaken();
    return rpcError(c, request.id, mapError(error));
  }
  if (!isAsyncIterable(answer)) {
    releaseUntaken();
    // The SDK wrote CANCELED (the caller may see the task); the run itself stops where it runs.
    if (elsewhere !== undefined && !('error' in (answer as object))) await endpoint.stopElsewhere(elsewhere);
    return c.json(answer as object);
  }
  return streamEvents(c, {}, async (stream) => {
    const writes = writeQueue(stream);
    try {
      for await (const event of answer) writes.push(JSON.stringify(event));
    } catch (error) {
      writes.push(JSON.stringify({ jsonrpc: '2.0', id: request.id ?? null, error: mapError(error) }));
    } finally {
      releaseUntaken();
      await writes.flush();
    }
  });
}
