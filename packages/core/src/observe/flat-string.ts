/**
 * `text`, flattened in place. A template or `+` result is a rope: a 32-byte node per part, each
 * part kept beside it. V8 flattens a rope when one of its characters is first read, and the GC
 * then keeps the flat copy alone; a string kept for the whole session (a log line) is read once
 * here, so it holds about half the heap (a typical line: ~300 bytes as a rope, ~130 flat).
 */
export function flattened(text: string): string {
  text.charCodeAt(0);
  return text;
}
