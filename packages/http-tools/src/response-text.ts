import type { ToolResult } from '@agent/protocol';
import type { BoundedResponse } from './bounded-fetch.js';
import { ERROR_EXCERPT_CHARS, type ResponseMode } from './types.js';

function modeOf(mode: ResponseMode, contentType: string): Exclude<ResponseMode, 'auto'> {
  if (mode !== 'auto') return mode;
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (/ndjson|jsonl|json-seq|jsonlines/.test(type)) return 'json-lines';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  return 'text';
}

function cutNotice(response: BoundedResponse): string {
  return `\n[response cut at ${response.bytesRead} bytes: the API sent more than this tool reads]`;
}

/** A 2xx/3xx answer as the tool's result: JSON parsed (as `structured`), JSON lines as an array. */
export function successResult(response: BoundedResponse, mode: ResponseMode): ToolResult {
  const kind = modeOf(mode, response.contentType);
  const text = response.text;
  if (response.truncated) return { ok: true, text: `${text}${cutNotice(response)}` };
  if (kind === 'json' && text.trim() !== '') {
    try {
      const structured: unknown = JSON.parse(text);
      return { ok: true, text, structured };
    } catch {
      return { ok: true, text: `${text}\n[the answer was not valid JSON]` };
    }
  }
  if (kind === 'json-lines') {
    const items: unknown[] = [];
    for (const line of text.split('\n')) {
      const trimmed = line.replace(/^data:\s*/, '').trim();
      if (trimmed === '' || trimmed === '[DONE]') continue;
      try {
        items.push(JSON.parse(trimmed));
      } catch {
        items.push(trimmed);
      }
    }
    return { ok: true, text: items.map((item) => JSON.stringify(item)).join('\n'), structured: items };
  }
  return { ok: true, text: text === '' ? `(empty ${response.status} answer)` : text };
}

/** A 4xx/5xx answer as a tool error the model can read: the status and the body's start. */
export function errorResult(
  response: BoundedResponse,
  method: string,
  redact: (s: string) => string,
): ToolResult {
  const body = response.text.trim();
  const excerpt = body.length > ERROR_EXCERPT_CHARS ? `${body.slice(0, ERROR_EXCERPT_CHARS)} [...]` : body;
  const status = `${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`;
  const where = `${method} ${response.url.origin}${response.url.pathname}`;
  return {
    ok: false,
    error: {
      kind: 'execution',
      message: redact(`HTTP ${status} from ${where}${excerpt === '' ? '' : `: ${excerpt}`}`),
    },
  };
}
