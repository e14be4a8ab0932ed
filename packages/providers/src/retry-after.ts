/** Anything with a case-insensitive `get`, or a plain header record. */
export type HeadersLike =
  | { get(name: string): string | null }
  | Record<string, string | string[] | undefined>;

function header(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  for (const key of Object.keys(record)) {
    if (key.toLowerCase() !== name) continue;
    const value = record[key];
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/**
 * How long the provider asked us to wait, from `retry-after-ms` (milliseconds) or `retry-after`
 * (seconds, or an HTTP date). Undefined when neither header is present or readable.
 */
export function retryAfterMsFromHeaders(
  headers: HeadersLike | undefined,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined;
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const after = header(headers, 'retry-after')?.trim();
  if (!after) return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) return Math.round(Number(after) * 1000);
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
