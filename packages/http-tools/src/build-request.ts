import type { OutgoingRequest } from './bounded-fetch.js';
import { HttpToolsError } from './errors.js';
import { fillBody, fillHeader, fillUrl } from './template.js';
import type { RestToolDefinition } from './types.js';

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function bodyOf(tool: RestToolDefinition, args: Record<string, unknown>): unknown {
  if (tool.bodyArgument !== undefined) return args[tool.bodyArgument];
  if (tool.bodyProperties !== undefined) {
    const body: Record<string, unknown> = {};
    for (const name of tool.bodyProperties) if (args[name] !== undefined) body[name] = args[name];
    return Object.keys(body).length === 0 && tool.bodyProperties.length > 0 ? undefined : body;
  }
  if (tool.bodyTemplate !== undefined) return fillBody(tool.bodyTemplate, args);
  return undefined;
}

/** The request of one call: URL template filled, query/header/cookie arguments, JSON body. */
export function buildRequest(tool: RestToolDefinition, args: Record<string, unknown>): OutgoingRequest {
  const method = tool.method ?? 'GET';
  let url: URL;
  try {
    url = new URL(fillUrl(tool.url, args));
  } catch (error) {
    if (error instanceof HttpToolsError) throw error;
    throw new HttpToolsError(`the arguments made an invalid URL for ${tool.name}`);
  }
  for (const [query, name] of Object.entries(tool.queryArguments ?? {})) {
    const value = args[name];
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(query, text(item));
  }
  const headers = new Headers();
  for (const [header, template] of Object.entries(tool.headers ?? {})) {
    const value = fillHeader(template, args);
    if (value !== undefined && value !== '') headers.set(header, value);
  }
  for (const [header, name] of Object.entries(tool.headerArguments ?? {})) {
    const value = args[name];
    if (value !== undefined && value !== null)
      headers.set(header, Array.isArray(value) ? value.map(text).join(',') : text(value));
  }
  const cookies = Object.entries(tool.cookieArguments ?? {}).flatMap(([cookie, name]) =>
    args[name] === undefined || args[name] === null
      ? []
      : [`${cookie}=${encodeURIComponent(text(args[name]))}`],
  );
  if (cookies.length > 0) headers.set('cookie', cookies.join('; '));
  if (!headers.has('accept')) headers.set('accept', 'application/json, text/plain;q=0.9, */*;q=0.5');
  const body = method === 'GET' || method === 'HEAD' ? undefined : bodyOf(tool, args);
  if (body === undefined) return { method, url, headers };
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  const json = headers.get('content-type')?.includes('json') ?? false;
  return { method, url, headers, body: json || typeof body !== 'string' ? JSON.stringify(body) : body };
}
