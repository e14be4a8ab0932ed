import { type Child, h } from './dom.js';

/**
 * A small Markdown subset rendered to DOM nodes, never to an HTML string: headings, paragraphs,
 * lists, fenced code, quotes, rules, and inline code, bold, italics and http(s) links. Raw HTML
 * in the text stays text.
 */
export function renderMarkdown(text: string): HTMLElement {
  const root = h('div', { class: 'markdown' });
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length) {
    if ((lines[i] as string).trim() === '') {
      i++;
      continue;
    }
    const block = readBlock(lines, i);
    root.appendChild(block.node);
    i = block.next;
  }
  return root;
}

/** One block of the text: its node, and the index of the line after it. */
interface Block {
  node: HTMLElement;
  next: number;
}

const FENCE = /^\s*```/;
const LIST_ITEM = /^\s*([-*+]|\d+[.)])\s+/;
/** A line that starts a block other than a paragraph, so ends the paragraph before it. */
const BLOCK_START = /^(#{1,6}\s|\s*```|\s*([-*+]|\d+[.)])\s+|>)/;

/** The block starting at the (non-blank) line `start`: the first kind that matches, else a paragraph. */
function readBlock(lines: readonly string[], start: number): Block {
  const line = lines[start] as string;
  if (FENCE.test(line)) return fencedCode(lines, start);
  const heading = /^(#{1,6})\s+(.*)$/.exec(line);
  if (heading !== null) {
    const level = Math.min(6, (heading[1] as string).length + 1);
    return { node: h(`h${level}`, {}, ...inline(heading[2] as string)), next: start + 1 };
  }
  if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return { node: h('hr'), next: start + 1 };
  const item = LIST_ITEM.exec(line);
  if (item !== null) return list(lines, start, /\d/.test(item[1] as string));
  if (line.startsWith('>')) return quote(lines, start);
  return paragraph(lines, start);
}

/** Lines up to the closing fence (or the end), as preformatted code. */
function fencedCode(lines: readonly string[], start: number): Block {
  const body: string[] = [];
  let i = start + 1;
  while (i < lines.length && !FENCE.test(lines[i] as string)) body.push(lines[i++] as string);
  return { node: h('pre', {}, h('code', {}, body.join('\n'))), next: i + 1 };
}

/** Consecutive list items, one `li` each. */
function list(lines: readonly string[], start: number, ordered: boolean): Block {
  const element = h(ordered ? 'ol' : 'ul');
  let i = start;
  while (i < lines.length && LIST_ITEM.test(lines[i] as string)) {
    element.appendChild(h('li', {}, ...inline((lines[i] as string).replace(LIST_ITEM, ''))));
    i++;
  }
  return { node: element, next: i };
}

/** Consecutive `>` lines, their text rendered as Markdown again. */
function quote(lines: readonly string[], start: number): Block {
  const quoted: string[] = [];
  let i = start;
  while (i < lines.length && (lines[i] as string).startsWith('>'))
    quoted.push((lines[i++] as string).replace(/^>\s?/, ''));
  return { node: h('blockquote', {}, renderMarkdown(quoted.join('\n'))), next: i };
}

/** Lines up to a blank one or the start of another block (at least the first line). */
function paragraph(lines: readonly string[], start: number): Block {
  const text: string[] = [];
  let i = start;
  while (i < lines.length && (lines[i] as string).trim() !== '' && !BLOCK_START.test(lines[i] as string)) {
    text.push(lines[i++] as string);
  }
  if (text.length === 0) text.push(lines[i++] as string);
  return { node: h('p', {}, ...inline(text.join('\n'))), next: i };
}

const INLINE =
  /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|(?<!\w)_[^_\s][^_]*_(?!\w))|(\[[^\]]+\]\([^)\s]+\))/;

/** Inline spans of one block, as nodes. */
export function inline(text: string): Child[] {
  const out: Child[] = [];
  let rest = text;
  while (rest.length > 0) {
    const match = INLINE.exec(rest);
    if (match === null) {
      out.push(rest);
      break;
    }
    if (match.index > 0) out.push(rest.slice(0, match.index));
    const token = match[0];
    if (match[1] !== undefined) out.push(h('code', {}, token.slice(1, -1)));
    else if (match[2] !== undefined) out.push(h('strong', {}, ...inline(token.slice(2, -2))));
    else if (match[3] !== undefined) out.push(h('em', {}, ...inline(token.slice(1, -1))));
    else out.push(link(token));
    rest = rest.slice(match.index + token.length);
  }
  return out;
}

/** `[text](url)`: a link only for http(s) URLs; anything else stays text. */
function link(token: string): Child {
  const parts = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(token);
  const label = parts?.[1] ?? token;
  const href = parts?.[2] ?? '';
  let url: URL | undefined;
  try {
    url = new URL(href);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) return token;
  return h('a', { href: url.href, rel: 'noopener noreferrer nofollow', target: '_blank' }, label);
}
