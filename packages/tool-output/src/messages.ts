import type { ExtractionMode } from './types.js';

// The texts the model reads. The first three are the contract with the model (seed 001) and
// are kept character for character.

/** What replaces an oversized tool result in the conversation. */
export function handleMessage(bytes: number, lines: number, tokens: number, handle: string): string {
  return (
    `Tool output is too large (${bytes} bytes, ${lines} lines, ${tokens} tokens).\n` +
    `Call tool_output(handle = "${handle}", extract = "what to extract").\n` +
    'Provide precise and detailed instructions in `extract` about what you are looking for.'
  );
}

/** A `tool_output` answer: the abstract under its header. */
export function successMessage(
  toolName: string,
  handle: string,
  mode: ExtractionMode,
  abstract: string,
): string {
  return `ABSTRACT FROM TOOL OUTPUT ${toolName} WITH HANDLE ${handle}, STRATEGY:${mode}:\n\n${abstract}`;
}

/** A `tool_output` failure: the error under its header. */
export function failureMessage(
  toolName: string,
  handle: string,
  mode: ExtractionMode,
  error: string,
): string {
  return `TOOL_OUTPUT FAILED FOR ${toolName} WITH HANDLE ${handle}, STRATEGY:${mode}:\n\n${error}`;
}

/** The marker an extraction model answers with when it found nothing. */
export const NO_DATA_MARKER = 'NO RELEVANT DATA FOUND';

/** True when an extraction answer says nothing relevant was found. */
export function isNotFound(answer: string): boolean {
  return answer.trimStart().toUpperCase().startsWith(NO_DATA_MARKER);
}

/** How a not-found answer says what was searched (it is a successful answer, not a failure). */
export function searchedLine(what: string, extract: string): string {
  return `Searched ${what} for: ${JSON.stringify(extract)}. No match was found.`;
}

/** Longest handle shown bare in a failure header; a real one is 36 characters. */
const MAX_HEADER_HANDLE = 64;

/**
 * The `<UUID>` slot of the failure header for a handle the model sent that was not issued: the
 * value itself when it is one bare token (seed 001's header has no quotes), `(none)` when empty,
 * `(invalid)` when it could not stand there unquoted (the body quotes what was sent).
 */
export function headerHandle(given: string): string {
  if (given.length === 0) return '(none)';
  return given.length <= MAX_HEADER_HANDLE && /^[\w.:/\\-]+$/.test(given) ? given : '(invalid)';
}

/** A value the model sent, made safe to quote in one line of a message. */
export function quoteForMessage(value: string, max = 80): string {
  let cleaned = '';
  for (const char of value.slice(0, max + 1)) {
    const code = char.codePointAt(0) ?? 0;
    cleaned +=
      code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 ? ' ' : char;
  }
  const cut = cleaned.length > max ? `${cleaned.slice(0, max)}…` : cleaned;
  return JSON.stringify(cut);
}
