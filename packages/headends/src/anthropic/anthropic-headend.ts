import { randomUUID } from 'node:crypto';
import type { AgentResult } from '@agent/protocol';
import { admit, writeQueue } from '../admit.js';
import type { Headend } from '../headend.js';
import { createHeadendBase } from '../headend-base.js';
import type { HeadendOptions } from '../headend-options.js';
import { httpError, readJsonObject } from '../http-guards.js';
import { ReportDeltas } from '../report-deltas.js';
import { streamEvents } from '../sse-stream.js';
import { requestTraceparent } from '../trace-context.js';
import { answerText, failureMessage, inputRejection, usageTotals } from '../usage.js';
import { anthropicErrorBody, respondAnthropic } from './anthropic-errors.js';
import { MessageBlocks } from './message-blocks.js';
import { CONVERSATION_HEADER, parseMessagesRequest } from './messages-request.js';

function usageOf(result: AgentResult) {
  const totals = usageTotals(result);
  return { input_tokens: totals.inputTokens, output_tokens: totals.outputTokens };
}

/** Anthropic-compatible headend: `GET /v1/models`, `POST /v1/messages` (streaming and not). */
export function createAnthropicHeadend(options: HeadendOptions): Headend {
  const { app, admission, tokens, headendId } = createHeadendBase('anthropic', options, {
    respond: respondAnthropic,
    acceptApiKey: true,
  });

  app.get('/v1/models', (c) => {
    const data = options.catalog.list().map((info) => ({
      type: 'model',
      id: info.name,
      display_name: info.description ?? info.name,
      created_at: new Date(0).toISOString(),
      // Not Anthropic's field (clients ignore it): the agents chained around this one.
      ...(info.orchestration === undefined ? {} : { orchestration: info.orchestration }),
    }));
    return c.json({ data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
  });

  app.post('/v1/messages', async (c) => {
    const read = await readJsonObject(c, respondAnthropic);
    if (!read.ok) return read.response;
    const request = parseMessagesRequest(read.body, c.req.header(CONVERSATION_HEADER));
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
      ...(request.conversationId === undefined ? {} : { conversationId: request.conversationId }),
    };
    const message = (content: unknown[], stopReason: string | null, usage: Record<string, number>) => ({
      id,
      type: 'message',
      role: 'assistant',
      model: request.model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
    });
    if (!request.stream) {
      try {
        const reasoning: string[] = [];
        const result = await agent.run(input, {
          ...base,
          onEvent: (event, meta) => {
            if (event.type === 'thinking' && meta.isMaster && meta.source !== 'replay')
              reasoning.push(event.text);
          },
        });
        const rejection = inputRejection(result);
        if (rejection !== undefined) return httpError(c, respondAnthropic, 'bad_request', rejection);
        const text = answerText(result);
        if (text === undefined) return httpError(c, respondAnthropic, 'server_error', failureMessage(result));
        const content: unknown[] = [];
        if (reasoning.length > 0)
          content.push({ type: 'thinking', thinking: reasoning.join(''), signature: '' });
        content.push({ type: 'text', text });
        return c.json(message(content, 'end_turn', usageOf(result)));
      } finally {
        ticket.release();
      }
    }
    return streamEvents(c, {}, async (stream) => {
      stream.onAbort(() => ticket.abort('client disconnected'));
      try {
        const writes = writeQueue(stream);
        const emit = (event: string, data: Record<string, unknown>) =>
          writes.push({ event, data: JSON.stringify(data) });
        emit('message_start', {
          type: 'message_start',
          message: message([], null, { input_tokens: 0, output_tokens: 0 }),
        });
        const blocks = new MessageBlocks(emit);
        const deltas = new ReportDeltas();
        let withdrawn: string | undefined;
        const result = await agent.run(input, {
          ...base,
          onEvent: (event, meta) => {
            if (withdrawn !== undefined) return;
            const delta = deltas.onEvent(event, meta);
            if (delta?.withdrawn !== undefined) {
              // Sent text cannot be taken back in this protocol: end with an error, stop the run.
              withdrawn = delta.withdrawn;
              ticket.abort('the streamed answer was withdrawn');
              return;
            }
            if (delta?.reasoning !== undefined) blocks.thinking(delta.reasoning);
            if (delta?.content !== undefined) blocks.text(delta.content);
          },
        });
        const text = withdrawn === undefined ? answerText(result) : undefined;
        if (text === undefined) {
          blocks.close();
          emit('error', anthropicErrorBody('server_error', withdrawn ?? failureMessage(result)));
        } else {
          const rest = deltas.remainder(text);
          if (rest !== undefined && rest !== '') blocks.text(rest);
          else if (!blocks.wroteText) blocks.text('');
          blocks.close();
          emit('message_delta', {
            type: 'message_delta',
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: usageOf(result),
          });
          emit('message_stop', { type: 'message_stop' });
        }
        await writes.flush();
      } finally {
        ticket.release();
      }
    });
  });

  return { kind: 'anthropic', app, admission, authRequired: tokens !== undefined };
}
