import type { AgentResult, FinalReport, GuardrailTrip } from '@agent/protocol';
import { CLI_EXIT, type CliExitCode } from '../exit-codes.js';
import { printable } from '../output/logfmt.js';
import { startsWithLocation } from '../runtime-errors.js';

/** What stderr says when a report is the model's plain text taken on the forced final turn. */
export const ADOPTED_TEXT_NOTICE =
  "agent: report adopted from the model's text; the model declared no status";

/** What stderr says when the final turn gave no report and the last tool result was taken. */
export const ADOPTED_TOOL_MESSAGE_NOTICE =
  'agent: report adopted from the last tool result; the model sent no report';

/** The stderr line for a report the model did not declare as such, if it is one. */
export function adoptionNotice(report: FinalReport | undefined): string | undefined {
  if (report?.origin === 'adopted-text') return ADOPTED_TEXT_NOTICE;
  if (report?.origin === 'adopted-tool-message') return ADOPTED_TOOL_MESSAGE_NOTICE;
  return undefined;
}

/** True for a report the session made itself because the model gave none. */
export function isSyntheticReport(report: FinalReport | undefined): boolean {
  return report !== undefined && (report.synthetic === true || report.origin === 'synthetic');
}

/** True for the kept last attempt of a run whose every report was refused (never committed). */
function isRejectedReport(report: FinalReport | undefined): boolean {
  return report?.origin === 'rejected';
}

/**
 * The report that goes to stdout without `--json`: none when the session made it up, and none
 * when it is a refused attempt (`--json` still carries both).
 */
export function printableReport(result: AgentResult): FinalReport | undefined {
  const report = result.finalReport;
  // A tripped guardrail's run prints nothing on stdout, whatever report it may carry.
  if (!result.success && result.guardrail !== undefined) return undefined;
  return isSyntheticReport(report) || isRejectedReport(report) ? undefined : report;
}

const INTERRUPTED: ReadonlySet<CliExitCode> = new Set([CLI_EXIT.interrupted, CLI_EXIT.terminated]);

/**
 * What stderr says when the exit code is not 0 (undefined for 0): one line, or for located
 * errors (`file:line: ...`, possibly several lines) the error as it is and then the marker,
 * so editors and `grep` find the locations at the start of lines. The reason is
 * `result.error`: what the provider, the server or the file check said.
 */
export function describeEnding(result: AgentResult, code: CliExitCode): string | undefined {
  if (code === CLI_EXIT.success) return undefined;
  if (!result.success && result.pendingApprovals !== undefined) return pausedEnding(result, code);
  if (!result.success && result.guardrail !== undefined) return guardrailEnding(result.guardrail, code);
  const report = result.finalReport;
  const synthetic = isSyntheticReport(report);
  if (INTERRUPTED.has(code) && result.exitCode === 'EXIT-FINAL-ANSWER' && !synthetic) {
    return `agent: interrupted; the agent reported status '${report?.status ?? 'unknown'}' (exit ${code})`;
  }
  if (code === CLI_EXIT.schemaMismatch && report?.validationErrors !== undefined) {
    return `agent: ${result.exitCode}: the report does not match the output schema: ${schemaErrorsLine(report)} (exit ${code})`;
  }
  if (code === CLI_EXIT.failureReport && report !== undefined && !synthetic) {
    return `agent: the agent reported status '${report.status}' (exit ${code})`;
  }
  const tools = code === CLI_EXIT.tools ? 'every tool call failed' : undefined;
  const error = result.error?.split('\n').map(printable).join('\n');
  const reason = error ?? (synthetic ? 'the session ended without a final report' : undefined);
  if (reason !== undefined && (reason.includes('\n') || startsWithLocation(reason))) {
    return `${reason}\nagent: ${result.exitCode}${tools === undefined ? '' : `: ${tools}`} (exit ${code})`;
  }
  const details = [tools, reason].filter((part) => part !== undefined && part !== '').join('; ');
  return `agent: ${result.exitCode}${details === '' ? '' : `: ${details}`} (exit ${code})`;
}

/** The closing line of a tripped guardrail: its name, where it ran (the tool call) and its reason. */
function guardrailEnding(trip: GuardrailTrip, code: CliExitCode): string {
  const call =
    trip.tool === undefined ? '' : ` ${trip.tool}${trip.callId === undefined ? '' : ` ${trip.callId}`}`;
  const where = `on ${trip.on} (${trip.phase}${call})`;
  return `agent: EXIT-GUARDRAIL: guardrail ${printable(trip.name)} blocked the run ${printable(where)}: ${printable(trip.reason)} (exit ${code})`;
}

/** The first validation errors of a report, on one line (the whole list is in `--json`). */
function schemaErrorsLine(report: FinalReport): string {
  const errors = report.validationErrors ?? [];
  const shown = errors
    .slice(0, 3)
    .map((e) => printable(`${e.instancePath === '' ? '/' : e.instancePath}: ${e.message}`));
  const more = errors.length > shown.length ? `; and ${errors.length - shown.length} more` : '';
  return `${shown.join('; ')}${more}`;
}

/** The closing lines of a paused run: the session, each pending call with its arguments, how to go on. */
function pausedEnding(result: AgentResult, code: CliExitCode): string {
  const pending = result.success ? [] : (result.pendingApprovals ?? []);
  const calls = pending.map(
    (p) => `  ${p.callId}  ${p.tool} ${printable(JSON.stringify(p.arguments).slice(0, 500))}`,
  );
  const first = pending[0]?.callId ?? '<call-id>';
  const stored = result.error?.includes('storing its snapshot failed')
    ? `\nagent: ${printable(result.error)}`
    : '';
  return [
    `agent: EXIT-AWAITING-APPROVAL: session ${result.sessionId} waits for ${pending.length} tool call${pending.length === 1 ? '' : 's'} (exit ${code}):`,
    ...calls,
    `agent: continue with: agent resume ${result.sessionId} --approve ${first} (or --deny ${first} --reason "...")${stored}`,
  ].join('\n');
}
