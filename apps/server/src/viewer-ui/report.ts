import { type Child, h } from './dom.js';
import { inline, renderMarkdown } from './markdown.js';
import type { Report } from './types.js';

/** The final report, rendered by its format: Markdown, JSON, a Slack Block Kit preview, or text. */
export function renderReport(report: Report): HTMLElement {
  const body = reportBody(report);
  return h(
    'section',
    { class: 'report', 'data-format': report.format },
    h(
      'h3',
      {},
      'Report ',
      h('span', { class: `badge ${report.status}` }, report.status),
      ' ',
      h('span', { class: 'muted' }, report.format),
    ),
    body,
    validationList(report),
  );
}

/** What a json report that missed its schema got wrong (`validationErrors`), one line each. */
function validationList(report: Report): HTMLElement | undefined {
  const errors = report.validationErrors ?? [];
  if (errors.length === 0) return undefined;
  return h(
    'div',
    { class: 'validation-errors' },
    h('p', { class: 'error' }, 'Does not match the output schema:'),
    h(
      'ul',
      {},
      ...errors.map((e) => h('li', {}, `${e.instancePath === '' ? '/' : e.instancePath}: ${e.message}`)),
    ),
  );
}

function reportBody(report: Report): HTMLElement {
  if (report.format === 'json') {
    const value = report.content_json ?? report.content ?? '';
    return h('pre', { class: 'json' }, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  }
  if (report.format === 'slack-block-kit' && report.content_json !== undefined) {
    return slackPreview(report.content_json);
  }
  if (report.format === 'markdown' || report.format === 'slack-block-kit')
    return renderMarkdown(report.content ?? '');
  return h('pre', { class: 'text' }, report.content ?? '');
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const textOf = (value: unknown): string =>
  isObject(value) && typeof value.text === 'string' ? value.text : '';

/** Slack messages (`{ messages: [{ blocks }] }`) as simple HTML blocks. */
function slackPreview(content: Json): HTMLElement {
  const messages = Array.isArray(content.messages) ? content.messages : [content];
  const root = h('div', { class: 'slack' });
  for (const message of messages) {
    const card = h('div', { class: 'slack-message' });
    const blocks = isObject(message) && Array.isArray(message.blocks) ? message.blocks : [];
    if (blocks.length === 0)
      card.appendChild(h('p', {}, ...mrkdwn(textOf(message) || JSON.stringify(message))));
    for (const block of blocks) card.appendChild(slackBlock(isObject(block) ? block : {}));
    root.appendChild(card);
  }
  return root;
}

function slackBlock(block: Json): HTMLElement {
  switch (block.type) {
    case 'header':
      return h('h4', { class: 'slack-header' }, textOf(block.text));
    case 'divider':
      return h('hr');
    case 'section': {
      const fields = Array.isArray(block.fields) ? block.fields : [];
      return h(
        'div',
        { class: 'slack-section' },
        h('p', {}, ...mrkdwn(textOf(block.text))),
        fields.length === 0
          ? undefined
          : h('div', { class: 'slack-fields' }, ...fields.map((f) => h('p', {}, ...mrkdwn(textOf(f))))),
      );
    }
    case 'context': {
      const elements = Array.isArray(block.elements) ? block.elements : [];
      return h('p', { class: 'slack-context muted' }, ...elements.map((e) => textOf(e)).join(' · '));
    }
    default:
      return h('pre', { class: 'slack-other' }, JSON.stringify(block, null, 2));
  }
}

/** Slack mrkdwn: `*bold*` as Markdown's `**bold**`, `<url|label>` as a link; the rest as inline Markdown. */
function mrkdwn(text: string): Child[] {
  const converted = text
    .replace(/(^|\s)\*([^*\n]+)\*/g, '$1**$2**')
    .replace(/<(https?:\/\/[^|>\s]+)\|([^>]+)>/g, '[$2]($1)')
    .replace(/<(https?:\/\/[^|>\s]+)>/g, '[$1]($1)');
  return inline(converted);
}
