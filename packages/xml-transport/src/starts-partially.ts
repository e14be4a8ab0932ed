/**
 * True when `pattern` starts at `at` in `s`, or `s` ends at a prefix of `pattern` there
 * (the rest may come in the next chunk).
 */
export function startsPartially(s: string, at: number, pattern: string): boolean {
  const available = s.length - at;
  if (available >= pattern.length) return s.startsWith(pattern, at);
  for (let k = 0; k < available; k++) {
    if (s.charCodeAt(at + k) !== pattern.charCodeAt(k)) return false;
  }
  return true;
}

/** `s.indexOf('<', from)`, without the builtin call for the short tails of tiny chunks. */
export function indexOfLt(s: string, from: number): number {
  const n = s.length;
  if (n - from > 16) return s.indexOf('<', from);
  for (let i = from; i < n; i++) if (s.charCodeAt(i) === 0x3c) return i;
  return -1;
}
