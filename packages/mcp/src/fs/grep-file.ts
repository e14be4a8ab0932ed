import { formatGrepLine, type GrepMatcher } from './grep-matcher.js';
import { readTextBlocks } from './text-blocks.js';

export interface FileGrepOptions {
  matcher: GrepMatcher;
  /** Lines of context before and after each match (0: the fast block scan). */
  context: number;
  maxLineChars: number;
  /** Stop after this many matching lines (ignored when `countOnly`). */
  maxMatches: number;
  countOnly: boolean;
  signal?: AbortSignal;
}

export interface FileGrepResult {
  matches: number;
  lines: string[];
  hitLimit: boolean;
}

function newlinesBetween(text: string, from: number, to: number): number {
  let count = 0;
  let at = text.indexOf('\n', from);
  while (at !== -1 && at < to) {
    count++;
    at = text.indexOf('\n', at + 1);
  }
  return count;
}

/**
 * Finds matching lines without splitting the file into lines: the block regex jumps from
 * candidate to candidate over ~1 MB of text, and only the line around a candidate is confirmed
 * with the line regex (so a match never spans lines). Lines are numbered lazily.
 */
async function scanBlocks(path: string, display: string, options: FileGrepOptions): Promise<FileGrepResult> {
  const { matcher, maxLineChars, countOnly, signal } = options;
  const result: FileGrepResult = { matches: 0, lines: [], hitLimit: false };
  let lastMatchedLine = 0;
  // Counting skips line numbers; a line over 8 MB arrives in pieces and must count once.
  let previousPartial = false;
  let openLineCounted = false;
  for await (const block of readTextBlocks(path, { ...(signal ? { signal } : {}), numbered: !countOnly })) {
    const text = block.text;
    const re = matcher.block;
    let position = 0;
    let countedTo = 0;
    let lineAt = block.firstLine;
    const firstCounted: boolean = previousPartial && openLineCounted;
    const lastStart = text.lastIndexOf('\n') + 1;
    let lastCounted = false;
    while (position < text.length) {
      re.lastIndex = position;
      const found = re.exec(text);
      if (!found) break;
      const start = found.index === 0 ? 0 : text.lastIndexOf('\n', found.index - 1) + 1;
      let end = text.indexOf('\n', found.index);
      if (end === -1) end = text.length;
      const line = text.slice(start, end);
      const confirmed = matcher.line.exec(line);
      position = end + 1;
      if (!confirmed) continue;
      if (countOnly) {
        if (start === 0 && firstCounted) continue;
        result.matches++;
        if (start === lastStart) lastCounted = true;
        continue;
      }
      lineAt += newlinesBetween(text, countedTo, start);
      countedTo = start;
      if (lineAt === lastMatchedLine) continue;
      lastMatchedLine = lineAt;
      result.matches++;
      result.lines.push(formatGrepLine(display, lineAt, ':', line, maxLineChars, confirmed.index));
      if (result.matches >= options.maxMatches) {
        result.hitLimit = true;
        return result;
      }
    }
    openLineCounted = block.partial && (lastCounted || (lastStart === 0 && firstCounted));
    previousPartial = block.partial;
  }
  return result;
}

/** Line-by-line scan with before/after context, grep style (`--` between separate groups). */
async function scanWithContext(
  path: string,
  display: string,
  options: FileGrepOptions,
): Promise<FileGrepResult> {
  const { matcher, context, maxLineChars, signal } = options;
  const result: FileGrepResult = { matches: 0, lines: [], hitLimit: false };
  const before: { no: number; text: string }[] = [];
  let afterLeft = 0;
  let lastPrinted = 0;
  const emit = (no: number, separator: ':' | '-', text: string, index = 0) => {
    if (no <= lastPrinted) return;
    if (lastPrinted > 0 && no > lastPrinted + 1) result.lines.push('--');
    result.lines.push(formatGrepLine(display, no, separator, text, maxLineChars, index));
    lastPrinted = no;
  };
  for await (const block of readTextBlocks(path, signal ? { signal } : {})) {
    const text = block.text;
    let start = 0;
    let no = block.firstLine;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      const line = text.slice(start, end);
      const found = matcher.line.exec(line);
      if (found && no !== lastPrinted && !result.hitLimit) {
        for (const kept of before) emit(kept.no, '-', kept.text);
        before.length = 0;
        emit(no, ':', line, found.index);
        result.matches++;
        afterLeft = context;
        if (result.matches >= options.maxMatches) result.hitLimit = true;
      } else if (afterLeft > 0) {
        emit(no, '-', line);
        afterLeft--;
      } else if (result.hitLimit) {
        return result;
      } else {
        before.push({ no, text: line });
        if (before.length > context) before.shift();
      }
      if (result.hitLimit && afterLeft === 0) return result;
      start = end + 1;
      no++;
    }
  }
  return result;
}

export function grepFile(path: string, display: string, options: FileGrepOptions): Promise<FileGrepResult> {
  return options.context > 0 && !options.countOnly
    ? scanWithContext(path, display, options)
    : scanBlocks(path, display, options);
}
