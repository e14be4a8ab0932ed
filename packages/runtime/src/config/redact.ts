import type { AgentEvent, AgentResult, LogEntry, OpNode } from '@agent/protocol';
import { redactSecrets } from '@agent/providers';

/** Secrets shorter than this are not collected (placeholders such as `none` would blank ordinary words). */
export const MIN_COLLECTED_SECRET_LENGTH = 8;

/** Variable names whose values are treated as secrets wherever they are used. */
export const SECRET_VARIABLE = /key|token|secret|passw|auth|credential|cookie/i;

export type Redactor = (text: string) => string;

/** A redactor over the given secret values (plus the credential shapes `redactSecrets` knows). */
export function createRedactor(secrets: Iterable<string>): Redactor {
  const list = [...new Set(secrets)]
    .filter((secret) => secret.length >= MIN_COLLECTED_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  return (text) => redactSecrets(text, list);
}

/** The log entry with its message redacted (a copy only when something changed). */
export function redactLog(entry: LogEntry, redact: Redactor): LogEntry {
  const message = redact(entry.message);
  return message === entry.message ? entry : { ...entry, message };
}

/** The event with its log message / accounting error redacted (a copy only when something changed). */
export function redactEvent(event: AgentEvent, redact: Redactor): AgentEvent {
  if (event.type === 'log') {
    const entry = redactLog(event.entry, redact);
    return entry === event.entry ? event : { type: 'log', entry };
  }
  if (event.type === 'accounting' && event.entry.error !== undefined) {
    const error = redact(event.entry.error);
    return error === event.entry.error ? event : { type: 'accounting', entry: { ...event.entry, error } };
  }
  return event;
}

function redactTree<T extends OpNode>(node: T, redact: Redactor): T {
  const children = node.children.map((child) => redactTree(child, redact));
  const error = node.error === undefined ? undefined : redact(node.error);
  const accountingError = node.accounting?.error === undefined ? undefined : redact(node.accounting.error);
  return {
    ...node,
    children,
    ...(error === undefined ? {} : { error }),
    ...(node.accounting === undefined || accountingError === undefined
      ? {}
      : { accounting: { ...node.accounting, error: accountingError } }),
  };
}

/**
 * The result with every message the runtime or the session produced redacted; `redactEntry`
 * (default `redactLog`) may answer for entries it already redacted.
 */
export function redactResult(
  result: AgentResult,
  redact: Redactor,
  redactEntry: (entry: LogEntry) => LogEntry = (entry) => redactLog(entry, redact),
): AgentResult {
  const common = {
    logs: result.logs.map(redactEntry),
    accounting: result.accounting.map((entry) =>
      entry.error === undefined ? entry : { ...entry, error: redact(entry.error) },
    ),
    ...(result.opTree === undefined ? {} : { opTree: redactTree(result.opTree, redact) }),
  };
  return result.success ? { ...result, ...common } : { ...result, ...common, error: redact(result.error) };
}
