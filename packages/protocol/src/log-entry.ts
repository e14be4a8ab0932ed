/** VRB verbose, WRN warning, ERR error, TRC trace (wire-level), THK thinking, FIN end-of-run summary. */
export type LogSeverity = 'VRB' | 'WRN' | 'ERR' | 'TRC' | 'THK' | 'FIN';

export const LOG_SEVERITIES: readonly LogSeverity[] = ['VRB', 'WRN', 'ERR', 'TRC', 'THK', 'FIN'];

export type LogDetails = Record<string, string | number | boolean>;

/** One structured log line. Session markers use `remoteIdentifier` `agent:EXIT-...`. */
export interface LogEntry {
  /** Epoch milliseconds. */
  timestamp: number;
  severity: LogSeverity;
  direction: 'request' | 'response';
  type: 'llm' | 'tool';
  /** `provider:model` for LLM lines, `protocol:namespace:tool` for tool lines, `agent:...` for session markers. */
  remoteIdentifier: string;
  message: string;
  turn?: number;
  subturn?: number;
  /** Dotted path of agent names from the root session (`main.researcher`). */
  agentPath?: string;
  headendId?: string;
  details?: LogDetails;
}
