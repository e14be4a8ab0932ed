/**
 * True for the UTF-16 code units JavaScript's `\s` matches. One definition serves the
 * think rule, the tag grammar and the empty-content rule, so "whitespace-only content"
 * means exactly `payload.trim() === ''`.
 */
export function isWhitespaceCode(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
