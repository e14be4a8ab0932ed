import { randomUUID } from 'node:crypto';
import { admit } from '../admit.js';
import type { AgentCatalog } from '../agent-catalog.js';
import type { Headend } from '../headend.js';
import { createHeadendBase } from '../headend-base.js';
import type { HeadendOptions } from '../headend-options.js';
import { httpError, readJsonObject } from '../http-guards.js';
import { requestPrincipal } from '../principal.js';
import { requestTraceparent } from '../trace-context.js';
import { respondAnthropic } from './anthropic-errors.js';
import { answerMessage, type MessageCall, streamMessage } from './messages-answer.js';
import { CONVERSATION_HEADER, parseMessagesRequest } from './messages-request.js';

/** Anthropic-compatible headend: `GET /v1/models`, `POST /v1/messages` (streaming and not). */
export function createAnthropicHeadend(options: HeadendOptions): Headend {
  const { app, admission, tokens, headendId } = createHeadendBase('anthropic', options, {
    respond: respondAnthropic,
    acceptApiKey: true,
  });

  app.get('/v1/models', (c) => c.json(modelList(options.catalog)));

  app.post('/v1/messages', async (c) => {
    const read = await readJsonObject(c, respondAnthropic);
    if (!read.ok) return read.response;
    const request = await parseMessagesRequest(read.body, c.req.header(CONVERSATION_HEADER));
    if (typeof request === 'string') return httpError(c, respondAnthropic, 'bad_request', request);
    const agent = options.catalog.get(request.model);
    if (agent === undefined) {
      return httpError(
        c,
        respondAnthropic,
        'not_found',
        `model: "${request.model}" is not an agent of this server`,
      );
    }
    const admitted = await admit(c, admission, respondAnthropic);
    if (!admitted.ok) return admitted.response;
    const { ticket } = admitted;
    const id = `msg_${randomUUID().replaceAll('-', '')}`;
    const input = { prompt: request.prompt, history: request.history };
    const base = {
      format: request.format,
      schema: request.schema,
      headendId,
      signal: ticket.signal,
      ...requestTraceparent(c),
      owner: requestPrincipal(c).id,
      ...(request.conversationId === undefined ? {} : { conversationId: request.conversationId }),
    };
    const call: MessageCall = {
      agent,
      input,
      options: base,
      ticket,
      message: messageFrame(id, request.model),
    };
    return request.stream ? streamMessage(c, call) : answerMessage(c, call);
  });

  return { kind: 'anthropic', app, admission, authRequired: tokens !== undefined };
}

/** `GET /v1/models`: every agent as a model, in one page. */
function modelList(catalog: AgentCatalog) {
  const data = catalog.list().map((info) => ({
    type: 'model',
    id: info.name,
    display_name: info.description ?? info.name,
    created_at: new Date(0).toISOString(),
    // Not Anthropic's field (clients ignore it): the agents chained around this one.
    ...(info.orchestration === undefined ? {} : { orchestration: info.orchestration }),
  }));
  return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}

/** The message object around content: the same id and model in the stream's start and the whole answer. */
function messageFrame(id: string, model: string): MessageCall['message'] {
  return (content, stopReason, usage) => ({
    id,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  });
}
