import type { ConversationMessage } from '@agent/protocol';
import { renderMessage } from './transcript.js';

/** The summary call's system prompt: fixed, so every compaction asks the same. */
export const SUMMARY_PROMPT = [
  'You summarize the earlier part of a working session between a user and an AI agent, so the agent can go on with the task without it.',
  'Write a dense, factual summary in plain text. Keep:',
  "- the user's goal and every requirement or constraint they gave;",
  '- decisions taken, and why;',
  '- facts found, each with its source (tool, file, URL, command);',
  '- open questions and problems not yet solved;',
  '- what is left to do, in order.',
  'Where the original text of a tool output still matters, name the tool_output handle it is stored behind (handles look like "tool_output(handle = ...)"), so the agent can read it again.',
  'Do not address the user, do not call tools, do not invent anything the transcript does not say. Answer with the summary only.',
].join('\n');

/** Tokens of framing per message a request adds (role markers). */
const MESSAGE_OVERHEAD = 8;
/** A message clipped below this many tokens says too little to be worth a place. */
const MIN_SHARE = 64;

export interface SummaryInput {
  /** The user's request (the last user message of the head), or undefined when there is none. */
  request: string | undefined;
  /** The previous summary's text, when this compaction folds it in. */
  previous: string | undefined;
  /** The replaced messages other than the previous summary. */
  messages: readonly ConversationMessage[];
  fromTurn: number;
  toTurn: number;
  handle: string;
  /** Input tokens the call may send (the target's window less its buffer and the summary's tokens). */
  budget: number;
  /** Corrected tokens of a text. */
  count: (text: string) => number;
}

/**
 * The summary call's messages: the fixed prompt, then one user message with the request, the
 * previous summary and the transcript, clipped to fit `budget` (the transcript behind the
 * handle keeps everything).
 */
export function summaryMessages(input: SummaryInput): ConversationMessage[] {
  const { count, handle } = input;
  const note = (n: number) => `[... ${n} characters left out: in the transcript behind handle ${handle} ...]`;
  let budget = input.budget - count(SUMMARY_PROMPT) - 2 * MESSAGE_OVERHEAD;
  const sections: string[] = [];
  const framed = (title: string, text: string, share: number) => {
    const section = `## ${title}\n${clipMiddle(text, share, count, note)}`;
    budget -= count(section) + 2;
    sections.push(section);
  };
  if (input.request !== undefined) framed("The user's request", input.request, Math.floor(budget / 4));
  if (input.previous !== undefined)
    framed('Summary of the turns before', input.previous, Math.floor(budget / 3));
  const title = `## Transcript of turns ${input.fromTurn}–${input.toTurn}`;
  budget -= count(title);
  const blocks = fitBlocks(input.messages.map(renderMessage), Math.max(0, budget), count, note, handle);
  sections.push([title, ...blocks].join('\n\n'));
  return [
    { role: 'system', content: SUMMARY_PROMPT },
    { role: 'user', content: sections.join('\n\n') },
  ];
}

/**
 * Blocks fitted to `budget` tokens: each gets an equal share of what the smaller ones leave
 * (longer ones are clipped in the middle); when even that leaves too little per block, the
 * oldest are left out with a note.
 */
function fitBlocks(
  blocks: string[],
  budget: number,
  count: (text: string) => number,
  note: (n: number) => string,
  handle: string,
): string[] {
  let kept = blocks;
  let dropped = 0;
  while (kept.length > 1 && kept.length * MIN_SHARE > budget) {
    kept = kept.slice(1);
    dropped++;
  }
  const lead =
    dropped === 0
      ? []
      : [`[${dropped} earlier messages left out: in the transcript behind handle ${handle}]`];
  const room = budget - lead.reduce((sum, text) => sum + count(text) + 2, 0);
  const sizes = kept.map((text) => count(text) + 2);
  const cap = shareCap(sizes, room);
  return [...lead, ...kept.map((text, i) => (sizes[i]! <= cap ? text : clipMiddle(text, cap, count, note)))];
}

/** The largest per-block size such that every block at most that size fits `room` together. */
function shareCap(sizes: readonly number[], room: number): number {
  const sorted = [...sizes].sort((a, b) => a - b);
  let left = room;
  for (let i = 0; i < sorted.length; i++) {
    const share = Math.floor(left / (sorted.length - i));
    if (sorted[i]! > share) return Math.max(MIN_SHARE, share);
    left -= sorted[i]!;
  }
  return Number.POSITIVE_INFINITY;
}

/** `text` cut to about `tokens` tokens: its head and tail kept, the middle named by `note`. */
function clipMiddle(
  text: string,
  tokens: number,
  count: (text: string) => number,
  note: (n: number) => string,
): string {
  const size = count(text);
  if (size <= tokens) return text;
  const noteTokens = count(note(text.length));
  const keepChars = Math.max(0, Math.floor((text.length * Math.max(0, tokens - noteTokens)) / size));
  const half = Math.floor(keepChars / 2);
  // Never cut between the two halves of a surrogate pair: a lone one is not valid UTF-8 on the wire.
  const headEnd = isHighSurrogate(text.charCodeAt(half - 1)) ? half - 1 : half;
  const tailStart = isLowSurrogate(text.charCodeAt(text.length - half))
    ? text.length - half + 1
    : text.length - half;
  return `${text.slice(0, headEnd)}\n${note(tailStart - headEnd)}\n${text.slice(tailStart)}`;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
