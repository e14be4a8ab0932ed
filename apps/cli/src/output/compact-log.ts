import type { AgentEventMeta, LogEntry } from '@agent/protocol';
import { printable } from './logfmt.js';

/** Longest message a compact line shows; `--verbose` prints it whole. */
export const COMPACT_MESSAGE_MAX = 500;

/**
 * What stderr shows without `--verbose`: warnings and errors. The top agent's own exit marker
 * (`agent:EXIT-...`) is left out: the closing line says the same.
 */
export function showsWithoutVerbose(entry: LogEntry, meta: AgentEventMeta): boolean {
  if (entry.severity !== 'WRN' && entry.severity !== 'ERR') return false;
  return !(meta.isMaster && entry.remoteIdentifier.startsWith('agent:EXIT-'));
}

/** One entry as a short line: `WRN [ask] mcp:broken: MCP server "broken" was not started: ...`. */
export function formatCompactLog(entry: LogEntry): string {
  const text = entry.message;
  let message = text;
  if (text.length > COMPACT_MESSAGE_MAX) {
    // Never cut a surrogate pair in two.
    const high = text.charCodeAt(COMPACT_MESSAGE_MAX - 1);
    const cut = high >= 0xd800 && high <= 0xdbff ? COMPACT_MESSAGE_MAX - 1 : COMPACT_MESSAGE_MAX;
    message = `${text.slice(0, cut)}... (${text.length - cut} more characters; --verbose shows all)`;
  }
  const agent = entry.agentPath === undefined ? '' : ` [${printable(entry.agentPath)}]`;
  return `${entry.severity}${agent} ${printable(entry.remoteIdentifier)}: ${printable(message)}`;
}
