/**
 * The fetch every request to the remote agent goes through: the entry's headers added (a
 * request's own headers win), and a time limit on each request that has no signal of its own.
 */
export function fetchWith(
  base: typeof fetch,
  headers: Readonly<Record<string, string>> | undefined,
  defaultTimeoutMs: number,
): typeof fetch {
  return (input, init) => {
    const merged = new Headers(headers);
    for (const [key, value] of new Headers(init?.headers)) merged.set(key, value);
    const signal = init?.signal ?? AbortSignal.timeout(defaultTimeoutMs);
    return base(input, { ...init, headers: merged, signal });
  };
}
