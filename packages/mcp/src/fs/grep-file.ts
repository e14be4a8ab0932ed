import type { SearchPattern } from '@agent/schema';
import { formatGrepLine } from './grep-matcher.js';
import { readTextBlocks } from './text-blocks.js';

export interface FileGrepOptions {
  matcher: SearchPattern;
  /** Lines of context before and after each match. */
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

/**
 * Tests each line of the file's ~1 MB blocks on its own (a match never spans lines); only a
 * matching line is searched again, for where its match starts (a long line is cut around it).
 */
async function scanLines(path: string, display: string, options: FileGrepOptions): Promise<FileGrepResult> {
  const { matcher, maxLineChars, countOnly, signal } = options;
  const result: FileGrepResult = { matches: 0, lines: [], hitLimit: false };
  // A line over 8 MB arrives in pieces (a `partial` block is one piece): it counts once.
  let openLineMatched = false;
  for await (const block of readTextBlocks(path, { ...(signal ? { signal } : {}), numbered: !countOnly })) {
    const text = block.text;
    let start = 0;
    let no = block.firstLine;
    let continuesMatch: boolean = openLineMatched;
    let matched = false;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      const line = text.slice(start, end);
      matched = continuesMatch || matcher.test(line);
      if (matched && !continuesMatch) {
        result.matches++;
        if (!countOnly) {
          result.lines.push(formatGrepLine(display, no, ':', line, maxLineChars, matcher.search(line)));
          if (result.matches >= options.maxMatches) {
            result.hitLimit = true;
            return result;
          }
        }
      }
      continuesMatch = false;
      start = end + 1;
      no++;
    }
    openLineMatched = block.partial && matched;
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
      const found = matcher.test(line);
      if (found && no !== lastPrinted && !result.hitLimit) {
        for (const kept of before) emit(kept.no, '-', kept.text);
        before.length = 0;
        emit(no, ':', line, matcher.search(line));
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
    : scanLines(path, display, options);
}
