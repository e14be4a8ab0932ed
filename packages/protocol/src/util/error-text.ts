/** The message of anything thrown: an `Error`'s message, anything else as a string. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Longest string shown whole in a message; longer ones are cut with `...`. */
const MAX_SHOWN_STRING = 60;

/**
 * A value as a message shows it: strings quoted (long ones cut), numbers and booleans as they
 * are, lists by length and objects by kind (their content may be large or secret), `nothing` for undefined.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    return JSON.stringify(
      value.length > MAX_SHOWN_STRING ? `${value.slice(0, MAX_SHOWN_STRING - 3)}...` : value,
    );
  }
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) {
    if (value.length === 0) return 'an empty list';
    return value.length === 1 ? 'a list of 1 item' : `a list of ${value.length} items`;
  }
  if (typeof value === 'object') return 'an object';
  return String(value);
}
