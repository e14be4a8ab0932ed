const NEWLINE = 0x0a;

/** How many newline bytes `bytes` holds (lines of a stored or streamed text, without decoding it). */
export function countNewlines(bytes: Uint8Array): number {
  let count = 0;
  let at = bytes.indexOf(NEWLINE);
  while (at !== -1) {
    count++;
    at = bytes.indexOf(NEWLINE, at + 1);
  }
  return count;
}

/**
 * Where to cut `bytes` so no UTF-8 character is split: the length of the longest prefix that
 * ends with a whole character (before a trailing incomplete sequence; at most 3 bytes back, so
 * bytes that are not UTF-8 are kept as they are).
 */
export function utf8PrefixLength(bytes: Uint8Array): number {
  let end = bytes.length;
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: keep looking for the lead byte
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    if (needed > back) end = bytes.length - back;
    break;
  }
  return end;
}
