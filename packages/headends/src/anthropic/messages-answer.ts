import type { AgentResult } from '@agent/protocol';
import type { Context } from 'hono';
import type { SessionTicket } from '../admission.js';
import { writeQueue } from '../admit.js';
import type { ServedAgent, ServedInput, ServedRunOptions } from '../agent-catalog.js';
import { guardrailTrip } from '../guardrail-trip.js';
import { httpError } from '../http-guards.js';
import { ReportDeltas } from '../report-deltas.js';
import { streamEvents } from '../sse-stream.js';
import { answerText, failureMessage, inputRejection, mismatchMarker, usageTotals } from '../usage.js';
import {
  anthropicErrorBody,
  anthropicGuardrailBody,
  respondAnthropic,
  respondAnthropicTrip,
} from './anthropic-errors.js';
import { MessageBlocks } from './message-blocks.js';

/** One admitted `POST /v1/messages`: the agent, its input and run options, the ticket, the message's frame. */
export interface MessageCall {
  agent: ServedAgent;
  input: ServedInput;
  /** The run's options but its listener. */
  options: Omit<ServedRunOptions, 'onEvent'>;
  ticket: SessionTicket;
  message: (content: unknown[], stopReason: string | null, usage: Record<string, number>) => object;
}

function usageOf(result: AgentResult) {
  const totals = usageTotals(result);
  return { input_tokens: totals.inputTokens, output_tokens: totals.outputTokens };
}

/** Not Anthropic's field (clients keep it): the report missed its schema (docs/headends.md). */
function agentField(result: AgentResult) {
  const marker = mismatchMarker(result);
  return marker === undefined ? {} : { agent: marker };
}

/** The whole message once the run ends: the master's thinking, then the report as text. */
export async function answerMessage(c: Context, call: MessageCall): Promise<Response> {
  const { agent, input, ticket } = call;
  try {
    const reasoning: string[] = [];
    const result = await agent.run(input, {
      ...call.options,
      onEvent: (event, meta) => {
        if (event.type === 'thinking' && meta.isMaster && meta.source !== 'replay')
          reasoning.push(event.text);
      },
    });
    const rejection = inputRejection(result);
    if (rejection !== undefined) return httpError(c, respondAnthropic, 'bad_request', rejection);
    const trip = guardrailTrip(result);
    if (trip !== undefined) return respondAnthropicTrip(c, trip);
    const text = answerText(result);
    if (text === undefined) return httpError(c, respondAnthropic, 'server_error', failureMessage(result));
    const content: unknown[] = [];
    if (reasoning.length > 0) content.push({ type: 'thinking', thinking: reasoning.join(''), signature: '' });
    content.push({ type: 'text', text });
    return c.json({ ...call.message(content, 'end_turn', usageOf(result)), ...agentField(result) });
  } finally {
    ticket.release();
  }
}

/**
 * The message as Anthropic's SSE events while the run goes: thinking and text blocks from the
 * report's deltas; a withdrawn answer (sent text cannot be taken back in this protocol) ends
 * the stream with an error and stops the run.
 */
export function streamMessage(c: Context, call: MessageCall): Response | Promise<Response> {
  const { agent, input, ticket } = call;
  return streamEvents(c, {}, async (stream) => {
    stream.onAbort(() => ticket.abort('client disconnected'));
    try {
      const writes = writeQueue(stream);
      const emit = (event: string, data: Record<string, unknown>) =>
        writes.push({ event, data: JSON.stringify(data) });
      emit('message_start', {
        type: 'message_start',
        message: call.message([], null, { input_tokens: 0, output_tokens: 0 }),
      });
      const blocks = new MessageBlocks(emit);
      const deltas = new ReportDeltas();
      const result = await agent.run(input, {
        ...call.options,
        onEvent: deltas.listener(
          (delta) => {
            if (delta.reasoning !== undefined) blocks.thinking(delta.reasoning);
            if (delta.content !== undefined) blocks.text(delta.content);
          },
          (why) => ticket.abort(why),
        ),
      });
      const { withdrawn } = deltas;
      const trip = guardrailTrip(result);
      const text = withdrawn === undefined && trip === undefined ? answerText(result) : undefined;
      if (trip !== undefined) {
        // A guardrail stopped the run: its error event, never the text it blocked.
        blocks.close();
        emit('error', anthropicGuardrailBody(trip));
      } else if (text === undefined) {
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
          ...agentField(result),
        });
        emit('message_stop', { type: 'message_stop' });
      }
      await writes.flush();
    } finally {
      ticket.release();
    }
  });
}
