import { type Logger, LogLevel } from '@slack/web-api';
import type { SlackLog } from './slack-options.js';

/**
 * The Slack SDKs' logger, sent to the headend's `log` (or nowhere: a library does not print),
 * every line passed through `redact` first so no token or secret leaves.
 */
export function slackLogger(log: SlackLog | undefined, redact: (text: string) => string): Logger {
  let level: LogLevel = LogLevel.INFO;
  const line = (target: 'debug' | 'info' | 'warn' | 'error', parts: unknown[]) => {
    if (log === undefined) return;
    log(target, redact(parts.map((part) => (part instanceof Error ? part.message : String(part))).join(' ')));
  };
  return {
    debug: (...parts) => {
      if (level === LogLevel.DEBUG) line('debug', parts);
    },
    info: (...parts) => line('info', parts),
    warn: (...parts) => line('warn', parts),
    error: (...parts) => line('error', parts),
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
