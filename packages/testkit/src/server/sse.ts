/** One piece of a streamed answer as it goes on the wire. */
export interface Frame {
  text: string;
  /** A token delta: `tokenDelayMs` is waited before it. */
  delta?: boolean;
}

/** The wire protocols the server speaks. */
export type WireApi = 'openai-chat' | 'openai-responses' | 'anthropic';

/** An SSE event: optional `event:` line, one `data:` line, blank line. */
export function sseFrame(data: unknown, options: { event?: string; delta?: boolean } = {}): Frame {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  const text = `${options.event === undefined ? '' : `event: ${options.event}\n`}data: ${payload}\n\n`;
  return options.delta === true ? { text, delta: true } : { text };
}

/** The event whose data is not JSON, as the `malformed-sse` fault sends it for each API. */
export function malformedFrame(api: WireApi): Frame {
  const broken = '{"type": "broken", this is not JSON';
  if (api === 'openai-chat') return { text: `data: ${broken}\n\n` };
  const event = api === 'anthropic' ? 'content_block_delta' : 'response.output_text.delta';
  return { text: `event: ${event}\ndata: ${broken}\n\n` };
}

/** Headers of every streamed answer. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
};

export const JSON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
};
