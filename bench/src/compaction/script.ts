// The long session the compaction suite plays: a research agent reads a survey with its
// `read_page` tool, one page a turn, and reports on the last turn (200 in the full run). Pages are several KB each and
// every sixth one is over the tool-output cap. The model server answers from the request alone:
// the turn from the XML-NEXT notice, a summary call from its system prompt (not the agent's).
import type { ConversationMessage } from '@agent/protocol';
import type { RecordedRequest, ScriptedAnswer } from '@agent/testkit';
import { finalTagOf } from '../agent-loop/script.js';

export const INSTRUCTIONS =
  'You are a research agent. Read the survey one page at a time with read_page, then report what it says.';
export const PROMPT = 'Read the whole survey, page by page, and report its findings.';
export const TOOL_NAME = 'read_page';
export const TOOL_DESCRIPTION = 'Returns one page of the survey as text.';
export const TOOL_SCHEMA = {
  type: 'object',
  properties: { page: { type: 'integer', description: 'The page number, from 1.' } },
  required: ['page'],
  additionalProperties: false,
} as const;
/** The first line of the report a session that went the whole way commits (`reportTurn - 1` pages). */
export function fullReport(reportTurn: number): string {
  return `SURVEY REPORT: all ${reportTurn - 1} pages read.`;
}
/** Page sizes in KB, in turn order; 14 KB is over the default tool-output cap (12 KB). */
const PAGE_KB = [3, 6, 4, 9, 5, 14];
/** The summary the scripted model writes is this many words of findings, besides its header. */
const SUMMARY_WORDS = 180;

const WORDS = [
  'revenue',
  'region',
  'north',
  'south',
  'margin',
  'cohort',
  'churn',
  'survey',
  'respondent',
  'quarter',
  'growth',
  'median',
  'sample',
  'weighted',
  'index',
  'segment',
  'retail',
  'wholesale',
  'forecast',
  'variance',
  'baseline',
  'adjusted',
  'seasonal',
  'outlier',
  'confidence',
  'interval',
];

/** A deterministic pseudo-random stream (mulberry32), so every run reads the same pages. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Page `page` of the survey: table-like lines of figures and prose, `pageBytes(page)` long. */
export function pageText(page: number): string {
  const next = random(page);
  const bytes = pageBytes(page);
  const lines: string[] = [`# Survey page ${page}`];
  let length = lines[0]!.length;
  for (let row = 1; length < bytes; row++) {
    const words = Array.from({ length: 6 }, () => WORDS[Math.floor(next() * WORDS.length)]);
    const line = `p${page}.r${row} ${words.join(' ')} value=${Math.floor(next() * 100000)} share=${(next() * 100).toFixed(2)}%`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n').slice(0, bytes);
}

export function pageBytes(page: number): number {
  return PAGE_KB[(page - 1) % PAGE_KB.length]! * 1024;
}

const TURN = /# XML-NEXT: turn (\d+)\//;

/** The turn the request is for, from the XML-NEXT notice of its last user message that has one. */
export function turnOf(messages: readonly ConversationMessage[]): number | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'user') continue;
    const match = TURN.exec(message.content);
    if (match !== null) return Number(match[1]);
  }
  return undefined;
}

/**
 * A session turn carries the agent's instructions as its system prompt and ends with the
 * XML-NEXT notice; a summary call has its own system prompt, no tools and no notice of its own.
 */
export function isSummaryCall(request: RecordedRequest): boolean {
  const system = request.messages.find((message) => message.role === 'system');
  if (system === undefined || !system.content.includes(INSTRUCTIONS)) return true;
  const last = request.messages[request.messages.length - 1];
  return request.tools.length === 0 && !(last?.role === 'user' && TURN.test(last.content));
}

/** The pages a summary request's transcript covers, from the `read_page` calls it holds. */
function pagesIn(text: string): { first: number; last: number } | undefined {
  const pages = [...text.matchAll(/"page":\s*(\d+)|# Survey page (\d+)/g)].map((match) =>
    Number(match[1] ?? match[2]),
  );
  if (pages.length === 0) return undefined;
  return { first: Math.min(...pages), last: Math.max(...pages) };
}

function summaryAnswer(request: RecordedRequest): ScriptedAnswer {
  const text = request.messages.map((message) => message.content).join('\n');
  const range = pagesIn(text);
  const next = random(range?.last ?? 0);
  const findings = Array.from({ length: SUMMARY_WORDS }, () => WORDS[Math.floor(next() * WORDS.length)]);
  const head =
    range === undefined
      ? 'Summary of the earlier turns.'
      : `Pages ${range.first}-${range.last} of the survey were read with read_page; the next page is ${range.last + 1}.`;
  return { text: `${head}\nFindings so far: ${findings.join(' ')}.` };
}

function reportAnswer(messages: readonly ConversationMessage[], text: string): ScriptedAnswer {
  const tag = finalTagOf(messages);
  if (tag === undefined)
    throw new Error('compaction bench: no XML-NEXT notice with a FINAL tag in the request');
  return { text: `<${tag} tool="agent__final_report" status="success" format="text">${text}</${tag}>` };
}

/**
 * How the scripted model answers: a summary call with a summary of the pages its transcript
 * holds; a turn with no tools offered (a forced final turn) with the report of what was read
 * so far; turn `reportTurn` with the full report; any other turn with a `read_page` call for
 * the page of that turn.
 */
export function answerFor(request: RecordedRequest, reportTurn: number): ScriptedAnswer {
  if (isSummaryCall(request)) return summaryAnswer(request);
  const turn = turnOf(request.messages);
  if (turn === undefined) throw new Error('compaction bench: a session request without an XML-NEXT notice');
  if (request.tools.length === 0)
    return reportAnswer(
      request.messages,
      `SURVEY REPORT (stopped): pages 1-${turn - 1} read before the final turn.`,
    );
  if (turn >= reportTurn)
    return reportAnswer(request.messages, `${fullReport(reportTurn)}\nThe findings are summarised above.`);
  return { toolCalls: [{ name: TOOL_NAME, arguments: { page: turn } }] };
}
