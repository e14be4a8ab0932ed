import type { AgentResult, ExitCode } from '@agent/protocol';
import { INTERNAL_TOOL_SERVER } from '@agent/protocol';

/** Process exit codes of the `agent` command, one per way a run can end (docs/cli.md). */
export const CLI_EXIT = {
  /** A final report with status `success`. */
  success: 0,
  /** A final report whose status is `failure` or `partial`, or a synthetic failure report. */
  failureReport: 1,
  /** Bad arguments: unknown option, missing prompt, unreadable `--schema` file, ... */
  usage: 2,
  /** No usable report: max turns, token limit, no LLM response, retries exhausted, invalid reports. */
  noReport: 3,
  /** Every model target was rejected for its credentials. */
  auth: 4,
  /** Every model target is out of quota or credit. */
  quota: 5,
  /** The run failed and every tool call it made (MCP servers, sub-agents) failed. */
  tools: 6,
  /** Invalid config or agent file, unknown model, missing file (the message names file and line). */
  configuration: 7,
  /** Stopped some other way than a signal to the CLI: the `EXIT-USER-STOP` / `EXIT-ABORTED` markers. */
  cancelled: 8,
  /** A bug: an uncaught exception in the runtime or in the CLI. */
  internal: 9,
  /** Paused: tool calls wait for a decision; `agent resume <session-id> --approve/--deny` (docs/sessions.md). */
  awaitingApproval: 10,
  /** Every report attempt missed the output schema: the last one that parsed is printed anyway. */
  schemaMismatch: 11,
  /** A guardrail tripped: it blocked the input, the report or a tool call, or failed closed (docs/guardrails.md). */
  guardrail: 12,
  /** `agent replay` diverged from its record, or `agent eval` had a failing or regressed case (docs/evals.md). */
  regression: 13,
  /** Interrupted by SIGINT (Ctrl-C), even when a report came back: 128 + 2, as shells report it. */
  interrupted: 130,
  /** Terminated by SIGTERM: 128 + 15. */
  terminated: 143,
} as const;

/** One line per exit code for `--help` (docs/cli.md has the full rules). */
export const EXIT_CODE_HELP: Readonly<Record<CliExitCode, string>> = {
  0: 'the agent reported success',
  1: "the agent reported failure or partial (the model's own report)",
  2: 'usage: unknown command or option, bad value, missing prompt',
  3: 'no usable report: turn or token limit, no model answered, invalid reports',
  4: 'authentication: every model rejected the credentials',
  5: 'quota: every model is out of quota or credit',
  6: 'tools: the run failed and every tool call it made failed',
  7: 'configuration: invalid or missing config or agent file, unknown model',
  8: 'stopped by a stop or abort marker (not by a signal to the CLI)',
  9: 'internal error (a bug; please report it)',
  10: 'paused: tool calls await approval (agent resume <session-id> --approve/--deny <call-id>)',
  11: 'the JSON report does not match the output schema: printed anyway, the errors on stderr',
  12: 'a guardrail tripped: it blocked the input, the report or a tool call (its name and reason on stderr)',
  13: 'agent replay diverged from its record, or agent eval had a failing or regressed case',
  130: 'interrupted by Ctrl-C (SIGINT), even when a report came back',
  143: 'terminated by SIGTERM',
};

/** The exit code for a run ended by a signal to the CLI. */
export function signalExitCode(signal: 'SIGINT' | 'SIGTERM'): CliExitCode {
  return signal === 'SIGINT' ? CLI_EXIT.interrupted : CLI_EXIT.terminated;
}

export type CliExitCode = (typeof CLI_EXIT)[keyof typeof CLI_EXIT];

/** The class each session exit marker maps to; `EXIT-FINAL-ANSWER` depends on the report's status. */
export const EXIT_CODE_TABLE: Readonly<Record<ExitCode, CliExitCode>> = {
  'EXIT-FINAL-ANSWER': CLI_EXIT.success,
  'EXIT-MAX-TURNS-NO-RESPONSE': CLI_EXIT.noReport,
  'EXIT-TOKEN-LIMIT': CLI_EXIT.noReport,
  'EXIT-NO-LLM-RESPONSE': CLI_EXIT.noReport,
  'EXIT-RETRY-EXHAUSTION': CLI_EXIT.noReport,
  'EXIT-INVALID-FINAL-REPORT': CLI_EXIT.noReport,
  'EXIT-FINAL-REPORT-SCHEMA-MISMATCH': CLI_EXIT.schemaMismatch,
  'EXIT-AUTH-FAILURE': CLI_EXIT.auth,
  'EXIT-QUOTA-EXCEEDED': CLI_EXIT.quota,
  'EXIT-MODEL-ERROR': CLI_EXIT.configuration,
  'EXIT-CONFIGURATION': CLI_EXIT.configuration,
  'EXIT-USER-STOP': CLI_EXIT.cancelled,
  'EXIT-ABORTED': CLI_EXIT.cancelled,
  'EXIT-UNCAUGHT-EXCEPTION': CLI_EXIT.internal,
  'EXIT-AWAITING-APPROVAL': CLI_EXIT.awaitingApproval,
  'EXIT-GUARDRAIL': CLI_EXIT.guardrail,
};

/**
 * The process exit code for a finished run. Order: the session's own marker decides auth,
 * quota, configuration, cancellation and bugs; a run that did not succeed is a tools failure
 * when every external tool call it made failed; otherwise a committed report with a status
 * other than `success` is 1 and no report is 3.
 */
export function exitCodeForResult(result: AgentResult): CliExitCode {
  const mapped = EXIT_CODE_TABLE[result.exitCode] ?? CLI_EXIT.internal;
  if (mapped !== CLI_EXIT.success && mapped !== CLI_EXIT.noReport) return mapped;
  const report = result.finalReport;
  const succeeded =
    result.success &&
    mapped === CLI_EXIT.success &&
    report?.status === 'success' &&
    report.synthetic !== true;
  if (succeeded) return CLI_EXIT.success;
  if (toolsAllFailed(result)) return CLI_EXIT.tools;
  return mapped === CLI_EXIT.success ? CLI_EXIT.failureReport : CLI_EXIT.noReport;
}

/** True when the top-level session called at least one external tool and every such call failed. */
export function toolsAllFailed(result: AgentResult): boolean {
  let calls = 0;
  for (const entry of result.accounting) {
    if (entry.type !== 'tool' || entry.mcpServer === INTERNAL_TOOL_SERVER) continue;
    if (entry.agentPath?.includes('.')) continue;
    if (entry.status === 'ok') return false;
    calls++;
  }
  return calls > 0;
}
