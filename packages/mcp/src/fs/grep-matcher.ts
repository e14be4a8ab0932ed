import { FsToolError } from './fs-errors.js';

/** A pattern compiled twice: to find candidates in a block of lines, and to confirm one line. */
export interface GrepMatcher {
  source: string;
  /** Global + multiline: scans a whole block; `^`/`$` match at line boundaries. */
  block: RegExp;
  /** Tests one line on its own (grep semantics: a match never spans lines). */
  line: RegExp;
}

export function compileMatcher(pattern: string, ignoreCase: boolean): GrepMatcher {
  const flags = ignoreCase ? 'i' : '';
  try {
    return { source: pattern, block: new RegExp(pattern, `gm${flags}`), line: new RegExp(pattern, flags) };
  } catch (error) {
    throw new FsToolError(
      `"pattern" is not a valid JavaScript regular expression: ${(error as Error).message}`,
    );
  }
}

/** `file:12:text` for a match, `file-13-text` for a context line; long lines are cut around the match. */
export function formatGrepLine(
  display: string,
  lineNo: number,
  separator: ':' | '-',
  text: string,
  maxChars: number,
  matchIndex = 0,
): string {
  const clean = text.endsWith('\r') ? text.slice(0, -1) : text;
  if (clean.length <= maxChars) return `${display}${separator}${lineNo}${separator}${clean}`;
  const start = Math.max(0, Math.min(matchIndex - Math.floor(maxChars / 4), clean.length - maxChars));
  const shown = clean.slice(start, start + maxChars);
  const note = `[line cut: ${clean.length} chars, showing ${start + 1}-${start + shown.length}]`;
  return `${display}${separator}${lineNo}${separator}${start > 0 ? '...' : ''}${shown}... ${note}`;
}
