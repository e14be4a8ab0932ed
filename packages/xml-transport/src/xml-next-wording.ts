import type { ForcedFinalReason, ReportFormat } from './formats.js';

// The notice goes with every request of a session (seed 003: XML-NEXT each turn), so each fact
// is said once, in as few tokens as keep it clear (issue 20): the wrapper example shows the tag,
// its attributes and where the payload goes; the rules below it say only what it cannot show.

/** What goes between the tags for each format, as an instruction to the model. */
export const PAYLOAD_RULES: Readonly<Record<ReportFormat, string>> = {
  json: 'one raw JSON value, no code fence',
  'slack-block-kit':
    'the raw JSON messages array `[{"blocks": [...]}]`, not wrapped in an object, no code fence',
  markdown: 'raw Markdown, no fence around it',
  'markdown+mermaid': 'raw Markdown, diagrams in ```mermaid blocks, no fence around it',
  tty: 'raw terminal text; ANSI colours allowed',
  pipe: 'raw plain text for a program, no decoration',
  text: 'raw plain text, no Markdown',
  'sub-agent': 'raw text, handed unchanged to the agent that called you',
};

/** A placeholder body for the wrapper example. */
export const PAYLOAD_PLACEHOLDERS: Readonly<Record<ReportFormat, string>> = {
  json: '{...}',
  'slack-block-kit': '[...]',
  markdown: '...',
  'markdown+mermaid': '...',
  tty: '...',
  pipe: '...',
  text: '...',
  'sub-agent': '...',
};

/** Why this is the final turn, and what to do about it. */
export const FORCED_FINAL_WORDING: Readonly<Record<ForcedFinalReason, string>> = {
  context: 'The context window is almost full. Write the final report now from what you already know.',
  max_turns: 'The turn limit is reached. Write the final report now from what you already know.',
  task_status_completed: 'You reported the task as completed. Write the final report now.',
  task_status_only:
    'Your recent turns only reported status and made no progress. Stop reporting status and write the final report now.',
  retry_exhaustion:
    'Too many attempts failed. Write the final report now; if the task could not be done, use status="failure" and say why.',
  user_stop:
    'The user asked you to stop. Write the final report now with what you have; use status="partial" if the work is incomplete.',
};

export const STATUS_RULE = 'status: success, failure (not possible) or partial.';

export const TOOLS_RULE = 'Call tools natively, never in XML.';

/**
 * Seed 000's `encoding: base64` for the tag: a payload that would end or break the tag travels
 * encoded. The closing tag is named, not spelled out again: the wrapper shows it.
 */
export const BASE64_RULE = 'If it contains the closing tag, send it base64 with encoding="base64".';

/** How the wrapper is introduced: when to send it, that it ends the task, and that only its content counts. */
export const WRAPPER_INTRO = {
  normal: 'Finish with exactly one final report; only its content counts:',
  forced: 'Reply now with exactly one final report; only its content counts:',
} as const;

export function lastRetryReminder(tagName: string): string {
  return `Last attempt: plain text does not end the task. Only a final report inside <${tagName}> ... </${tagName}> ends it. Send it now.`;
}
