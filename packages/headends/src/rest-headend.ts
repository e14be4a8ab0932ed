import { isOutputFormat, type JsonSchema, OUTPUT_FORMATS } from '@agent/protocol';
import { conversationIdProblem } from '@agent/protocol/util';
import { admit } from './admit.js';
import type { Headend } from './headend.js';
import { createHeadendBase } from './headend-base.js';
import type { HeadendOptions } from './headend-options.js';
import { type ErrorResponder, httpError, readJsonObject } from './http-guards.js';
import { requestPrincipal } from './principal.js';
import { answerRun } from './rest-answer.js';
import { requestSchemaProblem, resolveRequestedOutput } from './schema-guard.js';
import { installSessionRoutes } from './sessions/rest-sessions.js';
import { requestTraceparent } from './trace-context.js';
import { installUiChatRoute } from './ui-stream/ui-chat-route.js';

const respondRest: ErrorResponder = (c, status, kind, message) =>
  c.json({ error: { type: kind, message } }, status as 400);

interface RunBody {
  prompt: string;
  format?: (typeof OUTPUT_FORMATS)[number];
  schema?: JsonSchema;
  conversationId?: string;
}

async function parseRunBody(body: Record<string, unknown>): Promise<RunBody | string> {
  if (typeof body.prompt !== 'string' || body.prompt === '') return '"prompt" must be a non-empty string';
  const run: RunBody = { prompt: body.prompt };
  if (body.conversationId !== undefined) {
    const problem = conversationIdProblem(body.conversationId);
    if (problem !== undefined) return `"conversationId": ${problem}`;
    run.conversationId = body.conversationId as string;
  }
  if (body.format !== undefined) {
    if (!isOutputFormat(body.format)) {
      return `"format" must be one of ${OUTPUT_FORMATS.join(', ')}, not ${JSON.stringify(body.format)}`;
    }
    run.format = body.format;
  }
  if (body.schema !== undefined) {
    if (typeof body.schema !== 'object' || body.schema === null || Array.isArray(body.schema)) {
      return '"schema" must be a JSON Schema object';
    }
    const problem = await requestSchemaProblem(body.schema, '"schema"');
    if (problem !== undefined) return problem;
    run.schema = body.schema as JsonSchema;
  }
  return run;
}

/** The REST headend's options: the common ones and what its streams forward. */
export interface RestHeadendOptions extends HeadendOptions {
  /**
   * Forward the model's text outside the report (`assistant_text` events): as SSE events on
   * runs and resumed sessions, as text parts marked `providerMetadata.agent.assistantText` on
   * `/api/chat`. Default off: clients that take every text as the answer's would show it.
   */
  assistantText?: boolean;
}

/**
 * REST headend: health, the agent list, runs answered as JSON or as SSE events, stored
 * sessions (`GET /v1/sessions/:id`, `POST /v1/sessions/:id/approvals`), and `POST /api/chat` in the AI SDK UI message stream protocol (`useChat` front-ends).
 */
export function createRestHeadend(options: RestHeadendOptions): Headend {
  const stream = { assistantText: options.assistantText === true };
  const { app, admission, tokens, headendId } = createHeadendBase('rest', options, {
    respond: respondRest,
    publicPaths: ['/health'],
  });

  app.get('/health', (c) =>
    c.json({
      status: admission.draining ? 'draining' : 'ok',
      active: admission.active,
      queued: admission.queued,
    }),
  );
  app.get('/v1/agents', (c) => c.json({ agents: options.catalog.list() }));

  app.post('/v1/agents/:name/run', async (c) => {
    const name = c.req.param('name');
    const agent = options.catalog.get(name);
    if (agent === undefined) return httpError(c, respondRest, 'not_found', `no agent named "${name}"`);
    const read = await readJsonObject(c, respondRest);
    if (!read.ok) return read.response;
    const body = await parseRunBody(read.body);
    if (typeof body === 'string') return httpError(c, respondRest, 'bad_request', body);
    const output = resolveRequestedOutput(body, agent.info, { json: '"format" json', schema: '"schema"' });
    if (typeof output === 'string') return httpError(c, respondRest, 'bad_request', output);
    const admitted = await admit(c, admission, respondRest);
    if (!admitted.ok) return admitted.response;
    const runOptions = {
      ...output,
      headendId,
      signal: admitted.ticket.signal,
      ...requestTraceparent(c),
      owner: requestPrincipal(c).id,
      ...(body.conversationId === undefined ? {} : { conversationId: body.conversationId }),
    };
    return answerRun(
      c,
      admitted.ticket,
      respondRest,
      (onEvent) => agent.run(body.prompt, onEvent === undefined ? runOptions : { ...runOptions, onEvent }),
      stream,
    );
  });

  installSessionRoutes(app, { catalog: options.catalog, admission, headendId, respond: respondRest, stream });
  installUiChatRoute(app, { catalog: options.catalog, admission, headendId, respond: respondRest, stream });

  return { kind: 'rest', app, admission, authRequired: tokens !== undefined };
}
