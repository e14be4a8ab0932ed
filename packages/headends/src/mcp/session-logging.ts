import type { LogEntry, LogSeverity } from '@agent/protocol';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type LoggingLevel,
  LoggingLevelSchema,
  type LoggingMessageNotification,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** The MCP level of each runtime log severity (thinking and wire traces are debug). */
const LEVEL_OF: Record<LogSeverity, LoggingLevel> = {
  TRC: 'debug',
  THK: 'debug',
  VRB: 'info',
  FIN: 'notice',
  WRN: 'warning',
  ERR: 'error',
};

const RANK = new Map(LoggingLevelSchema.options.map((level, index) => [level, index]));

/** The `notifications/message` params of a runtime log line. */
export function logMessage(entry: LogEntry): LoggingMessageNotification['params'] {
  const data: Record<string, string | number> = { message: entry.message, remote: entry.remoteIdentifier };
  if (entry.turn !== undefined) data.turn = entry.turn;
  return { level: LEVEL_OF[entry.severity], logger: entry.agentPath ?? 'agent', data };
}

/**
 * The MCP logging capability of one session's server: `logging/setLevel` sets the lowest level
 * the client wants; until it asks, no log lines are sent (the spec leaves the default to us, and
 * a client that never asked should not pay for the traffic).
 */
export class SessionLogging {
  private level: LoggingLevel | undefined;

  constructor(server: Server) {
    server.setRequestHandler(SetLevelRequestSchema, (request) => {
      this.level = request.params.level;
      return {};
    });
  }

  /** Whether a line of this runtime severity goes to the client. */
  wants(severity: LogSeverity): boolean {
    if (this.level === undefined) return false;
    return (RANK.get(LEVEL_OF[severity]) ?? 0) >= (RANK.get(this.level) ?? 0);
  }
}
