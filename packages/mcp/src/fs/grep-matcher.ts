import { AgentError } from '@agent/protocol';
import { compileSearchPattern, type SearchPattern } from '@agent/schema';
import { FsToolError } from './fs-errors.js';

/** Grep's pattern, compiled for RE2 (linear time: a pattern the model writes cannot stall the server). */
export function compileMatcher(pattern: string, ignoreCase: boolean): SearchPattern {
  try {
    return compileSearchPattern(pattern, { ignoreCase });
  } catch (error) {
    if (AgentError.is(error, 'search_pattern_unsupported')) throw new FsToolError(error.message);
    throw error;
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
