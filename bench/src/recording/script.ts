// The session the recording suite plays: an agent reads N pages of a survey through a REST tool
// (one call a turn, a few KB each) and then reports. The model answers from the request alone
// (N from the prompt, the turn from the tool results so far), so the same function answers
// in-process and over HTTP, for every session of every runner.
import type { ConversationMessage } from '@agent/protocol';
import { finalReport, type RecordedRequest, type ScriptedAnswer, toolCall } from '@agent/testkit';
import { pageText } from '../compaction/script.js';

export const INSTRUCTIONS =
  'You are a research agent. Read the pages you are asked for with the pages tool, then report.';
/** The `restTools` entry of the page API, and the tool name the model calls. */
export const TOOL_API = 'pages';
export const TOOL_NAME = `rest__${TOOL_API}`;
/** Every page the API serves is this long: a few KB, under the tool-output cap. */
export const PAGE_BYTES = 3 * 1024;

const PROMPT = /Read (\d+) pages of the survey/;

/** The prompt of an N-turn session: N pages, one tool call a turn, then the report. */
export function promptFor(pages: number): string {
  return `Read ${pages} pages of the survey, one page a turn, then report what they say.`;
}

/** The report a session of `pages` pages commits. */
export function reportFor(pages: number): string {
  return `SURVEY REPORT: ${pages} pages read.`;
}

/** The text the page API answers for `page`. */
export function pageBody(page: number): string {
  return pageText(page).slice(0, PAGE_BYTES);
}

function pagesAsked(messages: readonly ConversationMessage[]): number {
  for (const message of messages) {
    if (message.role !== 'user') continue;
    const match = PROMPT.exec(message.content);
    if (match !== null) return Number(match[1]);
  }
  throw new Error('recording bench: no "Read N pages" prompt in the request');
}

/** The next page while pages are left to read, then the report. */
export function answerFor(request: RecordedRequest): ScriptedAnswer {
  const pages = pagesAsked(request.messages);
  const read = request.messages.filter((message) => message.role === 'tool').length;
  // The arguments as the wire carries them (raw JSON text), in-process too: the session keeps
  // the raw text either way, so both model paths make the same requests.
  if (read < pages) return toolCall(TOOL_NAME, JSON.stringify({ page: read + 1 }));
  return finalReport(reportFor(pages));
}
