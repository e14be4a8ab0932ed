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
    const line = lines[i] as string;
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = /^\s*```/.exec(line);
    if (fence !== null) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !/^\s*```/.test(lines[i] as string)) body.push(lines[i++] as string);
      i++;
      root.appendChild(h('pre', {}, h('code', {}, body.join('\n'))));
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading !== null) {
      root.appendChild(
        h(`h${Math.min(6, (heading[1] as string).length + 1)}`, {}, ...inline(heading[2] as string)),
      );
      i++;
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      root.appendChild(h('hr'));
      i++;
      continue;
    }
    const list = /^\s*([-*+]|\d+[.)])\s+/.exec(line);
    if (list !== null) {
      const ordered = /\d/.test(list[1] as string);
      const element = h(ordered ? 'ol' : 'ul');
      while (i < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[i] as string)) {
        element.appendChild(
          h('li', {}, ...inline((lines[i] as string).replace(/^\s*([-*+]|\d+[.)])\s+/, ''))),
        );
        i++;
      }
      root.appendChild(element);
      continue;
    }
    if (line.startsWith('>')) {
      const quoted: string[] = [];
      while (i < lines.length && (lines[i] as string).startsWith('>'))
        quoted.push((lines[i++] as string).replace(/^>\s?/, ''));
      root.appendChild(h('blockquote', {}, renderMarkdown(quoted.join('\n'))));
      continue;
    }
    const paragraph: string[] = [];
    while (
      i < lines.length &&
      (lines[i] as string).trim() !== '' &&
      !/^(#{1,6}\s|\s*```|\s*([-*+]|\d+[.)])\s+|>)/.test(lines[i] as string)
    ) {
      paragraph.push(lines[i++] as string);
    }
    if (paragraph.length === 0) paragraph.push(lines[i++] as string);
    root.appendChild(h('p', {}, ...inline(paragraph.join('\n'))));
  }
  return root;
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
