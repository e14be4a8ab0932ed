import { processFinalReport } from '@agent/final-report';
import type { ExpectedOutput, FinalReport, GuardrailTrip, OpNode } from '@agent/protocol';
import { tripMessage, type GuardrailRunner } from '../guardrails/guardrail-runner.js';

export type GuardedReport =
  | { kind: 'go'; report: FinalReport; rewritten: boolean }
  | { kind: 'trip'; trip: GuardrailTrip; message: string };

/** A report's content as the guardrails read it: its text, or its JSON as text. */
export function reportText(report: FinalReport): string {
  return report.content ?? (report.content_json === undefined ? '' : JSON.stringify(report.content_json));
}

/**
 * The `report` guardrails on a valid report before it commits. A rewrite's value is the new
 * content: a string, or for `json` the JSON value, validated against the schema again (an
 * invalid one is that guardrail's error).
 */
export async function guardReport(
  guards: GuardrailRunner,
  report: FinalReport,
  expected: ExpectedOutput,
  turnNode: OpNode,
): Promise<GuardedReport> {
  const decision = await guards.run(
    { phase: 'report', text: reportText(report), report },
    turnNode,
    (subject, value) => {
      const next = rewrittenReport(subject.report, value, expected);
      return typeof next === 'string' ? next : { ...subject, report: next, text: reportText(next) };
    },
  );
  if (decision.kind === 'trip') return { kind: 'trip', trip: decision.trip, message: tripMessage(decision.trip) };
  if (decision.kind !== 'go') return { kind: 'go', report, rewritten: false };
  return { kind: 'go', report: decision.subject.report, rewritten: decision.rewrittenBy.length > 0 };
}

/** The report with `value` as its content, or why `value` cannot be its content. */
function rewrittenReport(report: FinalReport, value: unknown, expected: ExpectedOutput): FinalReport | string {
  if (expected.format !== 'json') {
    if (typeof value !== 'string') return `a ${expected.format} report must be rewritten as a string`;
    return { ...report, content: value };
  }
  const processed = processFinalReport(
    { source: 'tool', params: { status: report.status, report_format: 'json', content_json: value } },
    expected,
  );
  if (!processed.ok)
    return `the rewritten report is not valid: ${[processed.reason, ...processed.diagnostics].join('; ')}`;
  const next: FinalReport = { ...report };
  if (processed.report.content_json !== undefined) next.content_json = processed.report.content_json;
  if (processed.report.content !== undefined) next.content = processed.report.content;
  return next;
}
