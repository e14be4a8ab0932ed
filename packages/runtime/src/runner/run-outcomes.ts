import { randomUUID } from 'node:crypto';
import type { AgentEventMeta, AgentResult, ExpectedOutput, LogEntry } from '@agent/protocol';
import type { AgentDefinition } from '../agent-file/definition.js';
import type { RunOptions } from '../api.js';

/** The output contract of a run: `--format` / `--schema` over the file's `output`. */
export function runExpectedOutput(definition: AgentDefinition, options: RunOptions): ExpectedOutput {
  const format = options.format ?? (options.schema !== undefined ? 'json' : definition.output.format);
  const schema = options.schema ?? (format === 'json' ? definition.output.schema : undefined);
  return schema === undefined ? { format } : { format, schema };
}

/** A result for a run that could not start (`EXIT-CONFIGURATION`). */
export function configurationFailure(
  message: string,
  options: { onEvent?: RunOptions['onEvent']; headendId?: string; agentPath?: string },
): AgentResult {
  const sessionId = randomUUID();
  const agentPath = options.agentPath ?? 'main';
  const entry: LogEntry = {
    timestamp: Date.now(),
    severity: 'ERR',
    direction: 'response',
    type: 'llm',
    remoteIdentifier: 'agent:EXIT-CONFIGURATION',
    message,
    agentPath,
    ...(options.headendId === undefined ? {} : { headendId: options.headendId }),
  };
  const meta: AgentEventMeta = {
    isMaster: true,
    isFinal: false,
    sessionId,
    agentPath,
    ...(options.headendId === undefined ? {} : { headendId: options.headendId }),
  };
  try {
    options.onEvent?.({ type: 'log', entry }, meta);
  } catch {
    // The caller's listener failing changes nothing here.
  }
  return {
    success: false,
    exitCode: 'EXIT-CONFIGURATION',
    error: message,
    conversation: [],
    logs: [entry],
    accounting: [],
    sessionId,
  };
}
