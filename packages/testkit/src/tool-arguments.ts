import type { ToolCall } from '@agent/protocol';

/**
 * Parses arguments as a model sent them. Anything but a JSON object gives `arguments: {}` and a
 * `parseError` saying what was wrong, with `rawArguments` kept verbatim.
 */
export function parseToolArguments(
  raw: string,
): Pick<ToolCall, 'arguments' | 'rawArguments'> & { parseError?: string } {
  let value: unknown;
  try {
    value = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch (error) {
    return {
      arguments: {},
      rawArguments: raw,
      parseError: `arguments are not valid JSON: ${(error as Error).message}`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { arguments: {}, rawArguments: raw, parseError: `arguments must be a JSON object, got ${got}` };
  }
  return { arguments: value as Record<string, unknown>, rawArguments: raw };
}

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
