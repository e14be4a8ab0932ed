/** Splits a string into pieces of at most `size` characters (at least one piece, maybe empty). */
export function splitIntoPieces(text: string, size: number): string[] {
  if (text.length <= size) return [text];
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

/** Splits text into word tokens (each word with its trailing whitespace), for slow streaming. */
export function splitIntoWords(text: string): string[] {
  const words = text.match(/\s*\S+\s*/g);
  return words === null || words.length === 0 ? [text] : words;
}
