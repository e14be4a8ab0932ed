/** The most a remote agent's response may carry (a card, an answer, a whole stream): 32 MiB. */
export const MAX_A2A_RESPONSE_BYTES = 32 * 1024 * 1024;

/**
 * The fetch every request to the remote agent goes through: the entry's headers added (a
 * request's own headers win), a time limit on each request that has no signal of its own, and
 * a bound on the response body (a stream included): past it the body errors.
 */
export function fetchWith(
  base: typeof fetch,
  headers: Readonly<Record<string, string>> | undefined,
  defaultTimeoutMs: number,
  maxBytes = MAX_A2A_RESPONSE_BYTES,
): typeof fetch {
  return async (input, init) => {
    const merged = new Headers(headers);
    for (const [key, value] of new Headers(init?.headers)) merged.set(key, value);
    const signal = init?.signal ?? AbortSignal.timeout(defaultTimeoutMs);
    const response = await base(input, { ...init, headers: merged, signal });
    if (response.body === null) return response;
    return new Response(response.body.pipeThrough(byteLimit(maxBytes)), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** Passes bytes through until `maxBytes` have gone by, then errors the stream. */
function byteLimit(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > maxBytes) {
        controller.error(new Error(`the remote agent's response passed ${maxBytes} bytes`));
        return;
      }
      controller.enqueue(chunk);
    },
  });
}
