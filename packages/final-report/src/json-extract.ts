/**
 * Finding the JSON inside what a model wrote: Markdown code fences and balanced
 * `{...}` / `[...]` spans inside prose. This does not repair anything; it only cuts out
 * candidate texts for `parseJsonLenient` to parse.
 */

const FENCE = /```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\r?\n?/g;

/** Bodies of Markdown code fences, first fence first; an unclosed fence runs to the end. */
export function fencedBodies(text: string): string[] {
  const bodies: string[] = [];
  FENCE.lastIndex = 0;
  const open = FENCE.exec(text);
  if (open === null) return bodies;
  const start = open.index + open[0].length;
  const close = text.indexOf('```', start);
  const last = text.lastIndexOf('```');
  if (close === -1) {
    bodies.push(text.slice(start));
    return bodies;
  }
  bodies.push(text.slice(start, close));
  // A fence whose JSON contains ``` inside a string: the last fence closes it.
  if (last > close) bodies.push(text.slice(start, last));
  return bodies;
}

export interface JsonSpan {
  text: string;
  start: number;
  /** The brackets balanced; when false the span runs to the end of the text. */
  closed: boolean;
  kind: 'object' | 'array';
}

const CLOSING_QUOTE: Readonly<Record<string, string>> = { '"': '"', "'": "'", '\u201c': '\u201d' };
const MAX_SPANS = 16;

/**
 * Top-level `{...}` / `[...]` spans of the text, in order. Quotes (`"`, `'`, `“ ”`),
 * escapes and `//` / `/* *\/` comments inside a span are honoured, so brackets inside
 * strings do not count. Brackets in the prose between spans start new spans.
 */
export function jsonSpans(text: string): JsonSpan[] {
  const spans: JsonSpan[] = [];
  let i = 0;
  while (i < text.length && spans.length < MAX_SPANS) {
    const ch = text[i];
    if (ch !== '{' && ch !== '[') {
      i++;
      continue;
    }
    const end = balancedEnd(text, i);
    const kind = ch === '{' ? 'object' : 'array';
    if (end === -1) {
      spans.push({ text: text.slice(i), start: i, closed: false, kind });
      break;
    }
    spans.push({ text: text.slice(i, end + 1), start: i, closed: true, kind });
    i = end + 1;
  }
  return spans;
}

/** Index of the bracket closing the one at `start`, or -1 when it never closes. */
function balancedEnd(text: string, start: number): number {
  const stack: string[] = [];
  let quote: string | undefined;
  let i = start;
  while (i < text.length) {
    const ch = text[i] as string;
    if (quote !== undefined) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      i++;
      continue;
    }
    if (ch === '\\') {
      // An escaped quote outside a string (`{\"a\": 1}`) is not a string delimiter.
      i += 2;
      continue;
    }
    if (ch === '/' && text[i + 1] === '/') {
      const nl = text.indexOf('\n', i);
      if (nl === -1) return -1;
      i = nl + 1;
      continue;
    }
    if (ch === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close === -1) return -1;
      i = close + 2;
      continue;
    }
    const closing = CLOSING_QUOTE[ch];
    if (closing !== undefined) quote = closing;
    else if (ch === '{') stack.push('}');
    else if (ch === '[') stack.push(']');
    else if (ch === '}' || ch === ']') {
      if (stack.pop() !== ch) return -1;
      if (stack.length === 0) return i;
    }
    i++;
  }
  return -1;
}

/**
 * Where a trailing prose paragraph starts in an unclosed span: the earliest blank line
 * outside any string after which no JSON punctuation appears. -1 when there is none.
 */
export function trailingProseStart(text: string): number {
  const breaks: number[] = [];
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote !== undefined) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    const closing = CLOSING_QUOTE[ch];
    if (closing !== undefined) quote = closing;
    else if (ch === '\n' && /^[ \t\r]*\n/.test(text.slice(i + 1, i + 64))) breaks.push(i);
  }
  let lastPunctuation = -1;
  for (let i = text.length - 1; i >= 0 && lastPunctuation === -1; i--) {
    if ('{}[]"'.includes(text[i] as string)) lastPunctuation = i;
  }
  return breaks.find((at) => at > lastPunctuation) ?? -1;
}

/**
 * The deepest bracket nesting of a text, outside double-quoted strings: a cheap bound taken
 * before the recursive repair parser sees the text.
 */
export function bracketDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') deepest = Math.max(deepest, ++depth);
    else if ((ch === '}' || ch === ']') && depth > 0) depth--;
  }
  return deepest;
}
