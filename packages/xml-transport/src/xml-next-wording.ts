import type { ForcedFinalReason, ReportFormat } from './formats.js';

/** What goes between the tags for each format, as an instruction to the model. */
export const PAYLOAD_RULES: Readonly<Record<ReportFormat, string>> = {
  json: 'one JSON value, raw: no code fences, no text around it',
  'slack-block-kit':
    'the JSON messages array itself (`[{"blocks": [...]}, ...]`), raw: not wrapped in an object, no code fences',
  markdown: 'the report as raw Markdown text (not JSON, no code fence around the whole report)',
  'markdown+mermaid':
    'the report as raw Markdown text; put diagrams in ```mermaid code blocks (no fence around the whole report)',
  tty: 'the report as raw text for a terminal; ANSI colour codes are allowed',
  pipe: 'the report as raw plain text for another program: no Markdown, no decoration',
  text: 'the report as raw plain text (no Markdown)',
  'sub-agent': 'the report as raw text; it is handed unchanged to the agent that called you',
};

/** A placeholder body for the wrapper example. */
export const PAYLOAD_PLACEHOLDERS: Readonly<Record<ReportFormat, string>> = {
  json: '{ ... }',
  'slack-block-kit': '[ ... ]',
  markdown: '... your report ...',
  'markdown+mermaid': '... your report ...',
  tty: '... your report ...',
  pipe: '... your report ...',
  text: '... your report ...',
  'sub-agent': '... your report ...',
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

export const STATUS_RULE = 'status: "success" (done), "failure" (not possible) or "partial" (incomplete).';

export const TOOLS_RULE =
  'Call tools natively (as tool calls), never inside XML. Only the final report uses the XML tag.';

/**
 * Seed 000's `encoding: base64` for the tag: a payload that would end or break the tag travels
 * encoded. The closing tag is named, not spelled out again: the wrapper above shows it.
 */
export const BASE64_RULE =
  'If the payload would break the tag (e.g. it contains the closing tag), send it base64 (UTF-8) with encoding="base64" on the opening tag.';

/** How the wrapper is introduced: when to send it, that it ends the task, and that only its content counts. */
export const WRAPPER_INTRO = {
  normal:
    'When the task is done, send exactly one, in this wrapper; it ends the task and text outside it is not the report:',
  forced:
    'Reply now with the final report, exactly one, in this wrapper; it ends the task and text outside it is not the report:',
} as const;

export function lastRetryReminder(tagName: string): string {
  return `Last attempt: plain text does not end the task. Only a final report inside <${tagName}> ... </${tagName}> ends it. Send it now.`;
}
