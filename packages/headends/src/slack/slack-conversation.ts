import type { ConversationMessage } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { WebClient } from '@slack/web-api';
import { type Admission, AdmissionError, type SessionTicket } from '../admission.js';
import type { ServedAgent } from '../agent-catalog.js';
import { HeadendError } from '../headend-error.js';
import { answerText } from '../usage.js';
import { OpenerUpdates } from './opener-updates.js';
import type { SlackLog } from './slack-options.js';
import { fallbackText, progressLine, reportMessages, shortError, WORKING_TEXT } from './slack-report.js';

/** What a conversation needs besides its request. */
export interface ConversationContext {
  web: WebClient;
  admission: Admission;
  headendId: string;
  updateIntervalMs: number;
  log: SlackLog;
  redact: (text: string) => string;
}

/** One request to answer in Slack. */
export interface ConversationRequest {
  agent: ServedAgent;
  channel: string;
  /** The thread to answer in; none for a slash command (the opener starts a thread). */
  threadTs: string | undefined;
  prompt: string;
  history: ConversationMessage[];
}

/**
 * Answers one request: posts the opener, runs the agent (in `slack-block-kit`) while the opener
 * shows its progress, then puts the report's first message in the opener's place and posts the
 * rest in the thread, or replaces the opener with a short error.
 */
export async function converse(ctx: ConversationContext, request: ConversationRequest): Promise<void> {
  const { web } = ctx;
  const { channel } = request;
  const opened = await web.chat.postMessage({
    channel,
    text: WORKING_TEXT,
    ...(request.threadTs === undefined ? {} : { thread_ts: request.threadTs }),
  });
  const openerTs = opened.ts;
  if (openerTs === undefined)
    throw new HeadendError('slack_unexpected_answer', 'chat.postMessage answered without a ts');
  const threadTs = request.threadTs ?? openerTs;
  const replace = async (text: string, blocks?: unknown[]) => {
    await web.chat.update({
      channel,
      ts: openerTs,
      text,
      ...(blocks === undefined ? {} : { blocks: blocks as never }),
    });
  };
  let ticket: SessionTicket;
  try {
    ticket = await ctx.admission.enter();
  } catch (error) {
    const why = error instanceof AdmissionError ? error.message : 'the server is shutting down';
    await replace(`:warning: Not now: ${why}.`);
    return;
  }
  const updates = new OpenerUpdates((text) => replace(text), ctx.updateIntervalMs, WORKING_TEXT);
  try {
    const result = await request.agent.run(
      { prompt: request.prompt, history: request.history },
      {
        format: 'slack-block-kit',
        headendId: ctx.headendId,
        signal: ticket.signal,
        onEvent: (event, meta) => {
          const line = progressLine(event, meta);
          if (line !== undefined) updates.show(line);
        },
      },
    );
    await updates.stop();
    const messages = answerText(result) === undefined ? [] : reportMessages(result);
    const [first, ...rest] = messages;
    if (first === undefined) {
      await replace(shortError(result));
      return;
    }
    await replace(fallbackText(first), first.blocks);
    for (const message of rest) {
      await web.chat.postMessage({
        channel,
        thread_ts: threadTs,
        text: fallbackText(message),
        blocks: message.blocks as never,
      });
    }
  } catch (error) {
    await updates.stop();
    ctx.log('error', ctx.redact(`slack: answering in ${channel} failed: ${errorMessage(error)}`));
    await replace(':warning: Something went wrong while answering; the request was not completed.').catch(
      () => undefined,
    );
  } finally {
    ticket.release();
  }
}
