import { context, propagation } from '@opentelemetry/api';

/**
 * `fetch` for the Streamable HTTP transport: a request made while a span is active (a tool call
 * traced by the runtime) carries the trace context the application's propagator writes (W3C
 * `traceparent` with the Node SDK's default), so the MCP server's own spans join the run's
 * trace. With no propagator registered (tracing off) nothing is added.
 */
export function fetchWithTraceparent(input: string | URL, init?: RequestInit): Promise<Response> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  if (Object.keys(carrier).length === 0) return fetch(input, init);
  const headers = new Headers(init?.headers);
  for (const [name, value] of Object.entries(carrier)) if (!headers.has(name)) headers.set(name, value);
  return fetch(input, { ...init, headers });
}
