/** A tool call's arguments as parsed, with why they could not be when they could not. */
export interface ParsedToolArguments {
  arguments: Record<string, unknown>;
  /** Set when the text was not a JSON object; `arguments` is then `{}`. */
  parseError?: string;
}

/**
 * Parses a tool call's argument text as a model sent it. Empty text means no arguments;
 * anything but a JSON object gives `arguments: {}` and a `parseError` saying what was wrong.
 */
export function parseToolArguments(raw: string): ParsedToolArguments {
  if (raw.trim() === '') return { arguments: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { arguments: {}, parseError: `arguments are not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { arguments: {}, parseError: `arguments must be a JSON object, got ${got}` };
  }
  return { arguments: value as Record<string, unknown> };
}
