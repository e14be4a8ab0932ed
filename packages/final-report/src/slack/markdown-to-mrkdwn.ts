/**
 * GitHub-flavoured Markdown to Slack mrkdwn, for the things models write most:
 * `**bold**` / `__bold__` → `*bold*`, `[text](url)` → `<url|text>`, `# Heading` lines →
 * `*Heading*`, `- item` / `* item` / `+ item` bullets → `• item`, `~~x~~` → `~x~`, and
 * the language tag of a code fence is dropped. Code spans and fences are left alone;
 * text that is already mrkdwn comes out unchanged. Single `*x*` is mrkdwn bold already.
 */
export function markdownToMrkdwn(text: string): string {
  const code: string[] = [];
  const protect = (segment: string): string => {
    code.push(segment);
    return `\u0000${code.length - 1}\u0000`;
  };
  let out = text
    .replace(/```[^\n`]*\n([\s\S]*?)```/g, (_m, body: string) => protect(`\`\`\`\n${body}\`\`\``))
    .replace(/```[\s\S]*?```/g, protect)
    .replace(/`[^`\n]+`/g, protect);

  out = out
    .replace(
      /^[ \t]{0,3}#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm,
      (_m, title: string) => `*${stripEmphasis(title)}*`,
    )
    // Emphasis content holds no other markers: nested emphasis stays as written, and a second
    // pass over the output cannot pair leftover markers differently (the conversion is stable).
    .replace(/(?<![*_~])\*\*(?=[^\s*_~])([^\n*_~]*?[^\s*_~])\*\*(?![*_~])/g, '*$1*')
    .replace(/(?<![\w*_~])__(?=[^\s*_~])([^\n*_~]*?[^\s*_~])__(?![\w*_~])/g, '*$1*')
    .replace(/!?\[([^\]\n]+)\]\(\s*<?([^\s)>]+)>?(?:\s+"[^"\n]*")?\s*\)/g, '<$2|$1>')
    .replace(/(?<![*_~])~~(?=[^\s*_~])([^\n*_~]*?[^\s*_~])~~(?![*_~])/g, '~$1~')
    .replace(/^([ \t]*)[-*+][ \t]+(?=\S)/gm, '$1• ');

  // biome-ignore lint/suspicious/noControlCharactersInRegex: placeholders are NUL-delimited
  return out.replace(/\u0000(\d+)\u0000/g, (_m, index: string) => code[Number(index)] ?? '');
}

/** Markdown emphasis markers removed (for plain-text places such as headers). */
export function stripEmphasis(text: string): string {
  return text
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .replace(/__(.+?)__/g, '$1')
    .replace(/~~(.+?)~~/g, '$1')
    .trim()
    .replace(/^[*_]+|[*_]+$/g, '')
    .trim();
}

/** A header is plain text: heading marks and emphasis go. */
export function markdownToPlainText(text: string): string {
  return stripEmphasis(text.replace(/^[ \t]*#{1,6}[ \t]+/gm, '').replace(/\s*\n\s*/g, ' '));
}
