import type { AgentResult, ConversationMessage } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { WebClient } from '@slack/web-api';
import { type Admission, AdmissionError, type SessionTicket } from '../admission.js';
import type { ServedAgent } from '../agent-catalog.js';
import { HeadendError } from '../headend-error.js';
import { SLACK_PRINCIPAL_ID } from '../principal.js';
import { answerText } from '../usage.js';
import { OpenerUpdates } from './opener-updates.js';
import type { SlackLog } from './slack-options.js';
import {
  fallbackText,
  mismatchNote,
  progressLine,
  reportMessages,
  shortError,
  WORKING_TEXT,
} from './slack-report.js';

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
  const opener = await Opener.post(ctx.web, request);
  let ticket: SessionTicket;
  try {
    ticket = await ctx.admission.enter();
  } catch (error) {
    const why = error instanceof AdmissionError ? error.message : 'the server is shutting down';
    await opener.replace(`:warning: Not now: ${why}.`);
    return;
  }
  const updates = new OpenerUpdates((text) => opener.replace(text), ctx.updateIntervalMs, WORKING_TEXT);
  try {
    const result = await request.agent.run(
      { prompt: request.prompt, history: request.history },
      {
        format: 'slack-block-kit',
        headendId: ctx.headendId,
        // Slack's runs are the Slack face's: no bearer token reads them, an operator does.
        owner: SLACK_PRINCIPAL_ID,
        signal: ticket.signal,
        onEvent: (event, meta) => {
          const line = progressLine(event, meta);
          if (line !== undefined) updates.show(line);
        },
      },
    );
    await updates.stop();
    await opener.showReport(result);
  } catch (error) {
    await updates.stop();
    ctx.log('error', ctx.redact(`slack: answering in ${request.channel} failed: ${errorMessage(error)}`));
    await opener
      .replace(':warning: Something went wrong while answering; the request was not completed.')
      .catch(() => undefined);
  } finally {
    ticket.release();
  }
}

/** The message a conversation posts first: replaced with its progress, then the report or an error. */
class Opener {
  private constructor(
    private readonly web: WebClient,
    private readonly channel: string,
    private readonly ts: string,
    /** Where the report's further messages go: the request's thread, or the opener's own. */
    private readonly threadTs: string,
  ) {}

  /** Posts the opener (in the request's thread, if any). */
  static async post(web: WebClient, request: ConversationRequest): Promise<Opener> {
    const { channel } = request;
    const opened = await web.chat.postMessage({
      channel,
      text: WORKING_TEXT,
      ...(request.threadTs === undefined ? {} : { thread_ts: request.threadTs }),
    });
    const ts = opened.ts;
    if (ts === undefined)
      throw new HeadendError('slack_unexpected_answer', 'chat.postMessage answered without a ts');
    return new Opener(web, channel, ts, request.threadTs ?? ts);
  }

  async replace(text: string, blocks?: unknown[]): Promise<void> {
    await this.web.chat.update({
      channel: this.channel,
      ts: this.ts,
      text,
      ...(blocks === undefined ? {} : { blocks: blocks as never }),
    });
  }

  /**
   * The report's first message in the opener's place, the rest in the thread (then a note naming
   * the errors of a report that missed its schema); a short error when there is none.
   */
  async showReport(result: AgentResult): Promise<void> {
    const messages = answerText(result) === undefined ? [] : reportMessages(result);
    const [first, ...rest] = messages;
    if (first === undefined) {
      await this.replace(shortError(result));
      return;
    }
    await this.replace(fallbackText(first), first.blocks);
    for (const message of rest) {
      await this.web.chat.postMessage({
        channel: this.channel,
        thread_ts: this.threadTs,
        text: fallbackText(message),
        blocks: message.blocks as never,
      });
    }
    const note = mismatchNote(result);
    if (note !== undefined)
      await this.web.chat.postMessage({ channel: this.channel, thread_ts: this.threadTs, text: note });
  }
}
