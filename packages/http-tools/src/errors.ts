import { AgentError } from '@agent/protocol';

/** An OpenAPI document that cannot be used, or a request that cannot be built (code `http_tools`). */
export class HttpToolsError extends AgentError {
  override readonly name = 'HttpToolsError';

  constructor(message: string, options?: { cause?: unknown }) {
    super('http_tools', message, options);
  }
}

/** Replaces every secret (of at least 4 characters) in a text by `[redacted]`. */
export function redactor(secrets: readonly string[]): (text: string) => string {
  const list = [...new Set(secrets.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
  const encoded = list.flatMap((s) => (encodeURIComponent(s) === s ? [] : [encodeURIComponent(s)]));
  const all = [...list, ...encoded];
  return (text) => {
    let out = text;
    for (const secret of all) out = out.split(secret).join('[redacted]');
    return out;
  };
}
