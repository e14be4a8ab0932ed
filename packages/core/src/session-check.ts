import { ConfigError, type ExpectedOutput, type SessionSnapshot, type ToolDefinition } from '@agent/protocol';
import { isPositiveInteger } from '@agent/protocol/util';
import { resumableSnapshot } from './checkpoint/snapshot-check.js';
import { type AgentSessionConfig, DEFAULT_TOOL_RESPONSE_MAX_BYTES } from './config.js';
import { validateConfig } from './config-validation.js';
import { expectedOutput, reportBackTool } from './session-inputs.js';
import {
  type BuiltToolOutput,
  type ToolOutputWiring,
  toolOutputFactory,
} from './tools/tool-output-wiring.js';

/** A configuration that passed every check, with what the checks produced. */
export interface CheckedSession {
  ok: true;
  toolOutput: BuiltToolOutput;
  resumeFrom: SessionSnapshot | undefined;
  expected: ExpectedOutput;
  reportBack: ToolDefinition | undefined;
}

/**
 * Checks a session's configuration, its tool-output settings and the snapshot it resumes,
 * gathering every problem into one message rather than stopping at the first.
 */
export async function checkSession(
  config: AgentSessionConfig,
  agentPath: string,
  runChildSession: ToolOutputWiring['runChildSession'],
): Promise<CheckedSession | { ok: false; error: string }> {
  const cap = config.toolResponseMaxBytes;
  const toolOutput = await toolOutputFactory(config.toolOutput, {
    runChildSession,
    agentPath,
    toolResponseMaxBytes: isPositiveInteger(cap) ? cap : DEFAULT_TOOL_RESPONSE_MAX_BYTES,
    capGiven: isPositiveInteger(cap),
    compaction: config.compaction !== undefined && config.compaction !== false,
  });
  const problems = [...validateConfig(config), ...toolOutput.problems];
  const resumeFrom = collect(problems, () =>
    config.resumeFrom === undefined ? undefined : resumableSnapshot(config.resumeFrom),
  );
  let expected: ExpectedOutput = { format: config.output?.format ?? 'markdown' };
  let reportBack: ToolDefinition | undefined;
  if (problems.length === 0) {
    collect(problems, () => {
      expected = expectedOutput(config);
      reportBack = reportBackTool(config, expected);
    });
  }
  if (problems.length > 0)
    return { ok: false, error: ConfigError.of(problems, 'invalid session configuration').message };
  return { ok: true, toolOutput, resumeFrom, expected, reportBack };
}

/** Runs a check, adding a configuration error to the list instead of throwing it. */
function collect<T>(problems: ConfigError[], check: () => T): T | undefined {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(error);
    return undefined;
  }
}
