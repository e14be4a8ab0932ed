import { clampText, SLACK_LIMITS } from './clamp.js';
import { markdownToMrkdwn } from './markdown-to-mrkdwn.js';
import type { SlackMessage } from './types.js';

const MAX_DEPTH = 8;

/**
 * The text found in a Slack-ish value, in order, joined by blank lines: bare strings and
 * what sits under `text`, `fields`, `elements`, `blocks`, `attachments` (legacy) and `messages`.
 */
export function recoverText(value: unknown): string {
  const found: string[] = [];
  collect(value, 0, found);
  return found.join('\n\n');
}

function collect(value: unknown, depth: number, found: string[]): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    if (value.trim() !== '') found.push(value.trim());
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) collect(item, depth + 1, found);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const obj = value as Record<string, unknown>;
  for (const key of ['text', 'fields', 'elements', 'blocks', 'attachments', 'messages']) {
    if (obj[key] !== undefined) collect(obj[key], depth + 1, found);
  }
}

/** The safe single-section message: the text as mrkdwn, clamped to the section limit. */
export function fallbackMessage(text: string): SlackMessage {
  const body = clampText(markdownToMrkdwn(text.trim()), SLACK_LIMITS.sectionText);
  return { blocks: [{ type: 'section', text: { type: 'mrkdwn', text: body } }] };
}
