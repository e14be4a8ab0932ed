import { clampText } from './clamp.js';
import { markdownToMrkdwn, markdownToPlainText } from './markdown-to-mrkdwn.js';
import type { RepairLog, SlackText } from './types.js';

/**
 * A text object from what the model gave (a string or `{ type, text }`): mrkdwn text is
 * converted from Markdown, `kind` forces plain text (headers), and the text is clamped to
 * `max` characters (reported). Undefined when there is no text.
 */
export function toTextObject(
  raw: unknown,
  max: number,
  log: RepairLog,
  what: string,
  kind?: 'plain_text',
): SlackText | undefined {
  let type: SlackText['type'] = kind ?? 'mrkdwn';
  let text: string;
  const extra: Partial<SlackText> = {};
  if (typeof raw === 'string') {
    text = raw;
  } else if (
    typeof raw === 'object' &&
    raw !== null &&
    typeof (raw as { text?: unknown }).text === 'string'
  ) {
    const obj = raw as { type?: unknown; text: string; emoji?: unknown; verbatim?: unknown };
    text = obj.text;
    if (kind === undefined && obj.type === 'plain_text') type = 'plain_text';
    if (type === 'plain_text' && typeof obj.emoji === 'boolean') extra.emoji = obj.emoji;
    if (type === 'mrkdwn' && typeof obj.verbatim === 'boolean') extra.verbatim = obj.verbatim;
  } else {
    return undefined;
  }
  const converted =
    type === 'mrkdwn' ? markdownToMrkdwn(text) : kind === 'plain_text' ? markdownToPlainText(text) : text;
  if (converted.trim() === '') return undefined;
  const clamped = clampText(converted, max);
  if (clamped !== converted)
    log.repairs.push(`clamped ${what} at ${log.at} from ${converted.length} to ${max} characters`);
  return { type, text: clamped, ...extra };
}
