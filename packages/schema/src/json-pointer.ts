/** The segments of a JSON Pointer (RFC 6901), such as an Ajv error's `instancePath`, unescaped. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** One JSON Pointer segment for `key` (RFC 6901: `~` as `~0`, `/` as `~1`). */
export function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
