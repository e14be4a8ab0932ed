import type { LogEntry } from '@agent/protocol';

/** Characters that force a logfmt value into quotes. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must be quoted.
const NEEDS_QUOTES = /[\s"=\\]|[\u0000-\u001f\u007f-\u009f]/;

/** A logfmt value: bare when it is safe, else double-quoted with `\\`, `"` and control characters escaped. */
export function logfmtValue(value: string | number | boolean): string {
  const text = String(value);
  if (text.length > 0 && !NEEDS_QUOTES.test(text)) return text;
  return `"${escapeValue(text)}"`;
}

function escapeValue(text: string): string {
  return printable(text.replace(/[\\"]/g, (char) => `\\${char}`));
}

/**
 * The text with every control character escaped (`\n`, `\r`, `\t`, else `\u00XX`), so what a
 * model or a server wrote can never move the cursor or send an escape sequence to a terminal.
 */
export function printable(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return out;
}

/** A logfmt key: anything but letters, digits, `_`, `.` and `-` becomes `_`. */
export function logfmtKey(key: string): string {
  const cleaned = key.replace(/[^A-Za-z0-9_.-]/g, '_');
  return cleaned.length === 0 ? '_' : cleaned;
}

/** Joins pairs into one logfmt line (no trailing newline); undefined values are left out. */
export function logfmtLine(
  pairs: ReadonlyArray<readonly [string, string | number | boolean | undefined]>,
): string {
  const parts: string[] = [];
  for (const [key, value] of pairs) {
    if (value === undefined) continue;
    parts.push(`${logfmtKey(key)}=${logfmtValue(value)}`);
  }
  return parts.join(' ');
}

/**
 * One log entry as a logfmt line:
 * `ts=2025-01-01T00:00:00.000Z sev=WRN type=llm dir=response remote=openai:gpt-4o turn=2 agent=main msg="..."`,
 * then the entry's details as extra pairs.
 */
export function formatLogEntry(entry: LogEntry): string {
  const pairs: [string, string | number | boolean | undefined][] = [
    ['ts', Number.isFinite(entry.timestamp) ? new Date(entry.timestamp).toISOString() : undefined],
    ['sev', entry.severity],
    ['type', entry.type],
    ['dir', entry.direction],
    ['remote', entry.remoteIdentifier],
    ['turn', entry.turn],
    ['subturn', entry.subturn],
    ['agent', entry.agentPath],
    ['headend', entry.headendId],
    ['msg', entry.message],
  ];
  const reserved = new Set(pairs.map(([key]) => key));
  for (const [key, value] of Object.entries(entry.details ?? {})) {
    pairs.push([reserved.has(key) ? `detail.${key}` : key, value]);
  }
  return logfmtLine(pairs);
}
