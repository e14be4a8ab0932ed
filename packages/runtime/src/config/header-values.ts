import { isHttpHeaderName } from '@agent/http-tools';
import type { ConfigFile } from './schema.js';
import { labelOf, UnusableValue } from './substitute.js';

/** A header value (a key, a token) that no HTTP request can carry; the message names the field, never the value. */
export class UnsendableHeader extends UnusableValue {
  constructor(
    file: string,
    line: number | undefined,
    where: string,
    /** What is wrong and what to do, after the field's name. */
    readonly problem: string,
  ) {
    super(file, line, where);
  }

  get message(): string {
    return `\`${this.where}\` ${this.problem}`;
  }
}

/** What in `value` no HTTP header value can hold (RFC 9110 section 5.5, as `fetch` enforces it), or undefined. */
export function headerValueFault(value: string): string | undefined {
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code === 0x0a || code === 0x0d) return 'a line break';
    if (code === 0) return 'a NUL character';
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return `a control character (${codePoint(code)})`;
    if (code > 0xff) return `a character beyond U+00FF (${codePoint(code)})`;
  }
  return undefined;
}

export interface HeaderCheck {
  file: string;
  lineOf: (path: (string | number)[]) => number | undefined;
  /** The variables whose values made the string at `path` (and where each was set). */
  variablesAt: (path: (string | number)[]) => { name: string; value: string; from: string }[];
}

/**
 * Replaces every value that will be sent in an HTTP header (providers' `apiKey` and `headers`,
 * MCP servers' `headers`) and that no header can carry by an `UnsendableHeader`, so that
 * using the entry is a configuration error before any request, not a failed request.
 */
export function markUnsendableHeaders(data: ConfigFile, check: HeaderCheck): void {
  for (const [name, provider] of Object.entries(data.providers ?? {})) {
    if (provider === null) continue;
    const apiKey = mark(provider.apiKey, ['providers', name, 'apiKey'], check);
    if (apiKey !== undefined) (provider as { apiKey: unknown }).apiKey = apiKey;
    markHeaders(provider.headers, ['providers', name, 'headers'], check);
  }
  for (const [name, server] of Object.entries(data.mcpServers ?? {})) {
    if (server !== null) markHeaders(server.headers, ['mcpServers', name, 'headers'], check);
  }
  for (const [name, agent] of Object.entries(data.a2aAgents ?? {})) {
    if (agent !== null) markHeaders(agent.headers, ['a2aAgents', name, 'headers'], check);
  }
  for (const section of ['restTools', 'openapiSpecs'] as const)
    for (const [name, api] of Object.entries(data[section] ?? {}))
      if (api !== null) markHeaders(api.headers, [section, name, 'headers'], check);
}

function markHeaders(headers: Record<string, unknown> | undefined, path: string[], check: HeaderCheck): void {
  for (const [header, value] of Object.entries(headers ?? {})) {
    const at = [...path, header];
    if (!isHttpHeaderName(header)) {
      headers![header] = new UnsendableHeader(
        check.file,
        check.lineOf(at),
        labelOf(path),
        `has the header name ${JSON.stringify(header)}, which is not a valid HTTP header name (letters, digits and !#$%&'*+-.^_\`|~ only); rename it`,
      );
      continue;
    }
    const marked = mark(value, at, check);
    if (marked !== undefined) headers![header] = marked;
  }
}

function mark(value: unknown, path: string[], check: HeaderCheck): UnsendableHeader | undefined {
  if (typeof value !== 'string') return undefined;
  const fault = headerValueFault(value);
  if (fault === undefined) return undefined;
  const culprit = check.variablesAt(path).find((variable) => headerValueFault(variable.value) !== undefined);
  const source = culprit === undefined ? '' : ` (from \${${culprit.name}}, set in ${culprit.from})`;
  return new UnsendableHeader(
    check.file,
    check.lineOf(path),
    labelOf(path),
    `holds ${fault}${source}, which no HTTP header can carry (only printable characters and tabs); fix the value`,
  );
}

function codePoint(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
