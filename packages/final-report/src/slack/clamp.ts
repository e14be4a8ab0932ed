/** Slack Block Kit text limits this package enforces (characters, UTF-16 code units). */
export const SLACK_LIMITS = Object.freeze({
  /** Section `text`; Slack allows 3000, 2900 leaves room for the ellipsis and escapes. */
  sectionText: 2900,
  headerText: 150,
  contextText: 2000,
  sectionField: 2000,
  sectionFields: 10,
  contextElements: 10,
  imageAltText: 2000,
  /** Top-level notification `text` of a message. */
  messageText: 2900,
  blocksPerMessage: 50,
});

export const ELLIPSIS = '…';

/** Cuts `text` to at most `max` characters, ending in `…`, never splitting a surrogate pair. */
export function clampText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - ELLIPSIS.length);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}${ELLIPSIS}`;
}

/** Splits `text` into pieces of at most `max` characters, at a line break or space when it can. */
export function splitText(text: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = rest.lastIndexOf('\n', max);
    if (cut < max / 2) cut = rest.lastIndexOf(' ', max);
    if (cut < max / 2) cut = max;
    const code = rest.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut--;
    pieces.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).replace(/^[ \n]+/, '');
  }
  if (rest.trim() !== '') pieces.push(rest);
  return pieces.filter((piece) => piece.trim() !== '');
}
