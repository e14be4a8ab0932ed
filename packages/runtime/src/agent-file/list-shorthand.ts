/** A list key's shorthand: a comma-separated string as its trimmed, non-empty parts; anything else as it is. */
export function listShorthand(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}
