import { randomUUID } from 'node:crypto';
import type { UIMessageChunk } from 'ai';
import type { Hono } from 'hono';
import type { Admission } from '../admission.js';
import { admit, writeQueue } from '../admit.js';
import type { AgentCatalog, ServedAgent } from '../agent-catalog.js';
import { guardrailTrip } from '../guardrail-trip.js';
import { type ErrorResponder, httpError, readJsonObject } from '../http-guards.js';
import { requestPrincipal } from '../principal.js';
import type { RestStreamOptions } from '../rest-answer.js';
import { streamEvents } from '../sse-stream.js';
import { requestTraceparent } from '../trace-context.js';
import { answerText, failureMessage, inputRejection } from '../usage.js';
import { parseUiChatRequest, type UiChatRequest } from './ui-chat-request.js';
import { UiChunks } from './ui-chunks.js';

/** The header the AI SDK's client checks for (its `UI_MESSAGE_STREAM_HEADERS`). */
const UI_STREAM_HEADER = 'x-vercel-ai-ui-message-stream';

interface UiChatRouteOptions {
  catalog: AgentCatalog;
  admission: Admission;
  headendId: string;
  respond: ErrorResponder;
  /** `assistantText`: the model's text outside the report as marked text parts. */
  stream: RestStreamOptions;
}

type AgentPick = ServedAgent | { kind: 'bad_request' | 'not_found'; message: string };

function pickAgent(catalog: AgentCatalog, request: UiChatRequest): AgentPick {
  const known = catalog.list().map((info) => info.name);
  const list = known.join(', ') || 'none';
  if (request.agent === undefined) {
    const only = known.length === 1 ? catalog.get(known[0] as string) : undefined;
    if (only !== undefined) return only;
    return {
      kind: 'bad_request',
      message: `"agent" is required when the server has several agents (known: ${list})`,
    };
  }
  return (
    catalog.get(request.agent) ?? {
      kind: 'not_found',
      message: `no agent named "${request.agent}" (known: ${list})`,
    }
  );
}

/**
 * `POST /api/chat`: the AI SDK UI message stream protocol, so a `useChat` front-end works
 * unchanged. The UI messages are the conversation; the answer streams as SSE chunks
 * (`data: {json}`) ending with `data: [DONE]`. A client that goes away aborts the session.
 */
export function installUiChatRoute(app: Hono, options: UiChatRouteOptions): void {
  const { catalog, admission, headendId, respond } = options;
  app.post('/api/chat', async (c) => {
    const read = await readJsonObject(c, respond);
    if (!read.ok) return read.response;
    const request = parseUiChatRequest(read.body);
    if (typeof request === 'string') return httpError(c, respond, 'bad_request', request);
    const agent = pickAgent(catalog, request);
    if ('kind' in agent) return httpError(c, respond, agent.kind, agent.message);
    const admitted = await admit(c, admission, respond);
    if (!admitted.ok) return admitted.response;
    const { ticket } = admitted;
    const headers = { [UI_STREAM_HEADER]: 'v1', 'x-accel-buffering': 'no' };
    return streamEvents(c, headers, async (stream) => {
      stream.onAbort(() => ticket.abort('client disconnected'));
      try {
        const writes = writeQueue(stream);
        const send = (chunks: readonly UIMessageChunk[]) => {
          for (const chunk of chunks) writes.push(JSON.stringify(chunk));
        };
        const mapper = new UiChunks(`msg-${randomUUID()}`, options.stream.assistantText === true);
        send(mapper.start());
        let withdrawn: string | undefined;
        const result = await agent.run(
          { prompt: request.prompt, history: request.history },
          {
            headendId,
            signal: ticket.signal,
            ...requestTraceparent(c),
            owner: requestPrincipal(c).id,
            onEvent: (event, meta) => {
              if (withdrawn !== undefined) return;
              const outcome = mapper.onEvent(event, meta);
              send(outcome.chunks);
              if (outcome.withdrawn !== undefined) {
                // Sent text cannot be taken back in this protocol: end with an error, stop the run
                // (a guardrail's retraction ends the run already: its result names the trip).
                withdrawn = outcome.withdrawn;
                if (!outcome.guardrail) ticket.abort('the streamed answer was withdrawn');
              }
            },
          },
        );
        const trip = guardrailTrip(result);
        const text = withdrawn === undefined && trip === undefined ? answerText(result) : undefined;
        if (text === undefined) {
          const why = trip?.message ?? withdrawn ?? inputRejection(result) ?? failureMessage(result);
          send(mapper.fail(why, result));
        } else {
          send(mapper.finish(result, text));
        }
        writes.push({ data: '[DONE]' });
        await writes.flush();
      } finally {
        ticket.release();
      }
    });
  });
}
