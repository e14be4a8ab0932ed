import { type AgentResult, isToolCallEntry, type ReportValidationError } from '@agent/protocol';

/** Totals over a run's accounting (LLM tokens summed over every call, sub-agents included). */
export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  totalTokens: number;
  costUsd: number;
  llmCalls: number;
  toolCalls: number;
}

export function usageTotals(result: Pick<AgentResult, 'accounting'>): UsageTotals {
  const totals: UsageTotals = {
    inputTokens: 0,
    outputTokens: 0,
    cachedTokens: 0,
    totalTokens: 0,
    costUsd: 0,
    llmCalls: 0,
    toolCalls: 0,
  };
  for (const entry of result.accounting) {
    if (entry.type === 'tool') {
      // The committed report is the answer, not a tool call (the rule every count follows).
      if (isToolCallEntry(entry)) totals.toolCalls += 1;
      continue;
    }
    if (entry.type !== 'llm') continue;
    totals.llmCalls += 1;
    totals.inputTokens += entry.tokens.inputTokens;
    totals.outputTokens += entry.tokens.outputTokens;
    totals.cachedTokens += entry.tokens.cachedTokens ?? 0;
    totals.totalTokens += entry.tokens.totalTokens;
    totals.costUsd += entry.costUsd ?? 0;
  }
  return totals;
}

/**
 * The report as the text a chat client shows: JSON for structured payloads, else the content.
 * None for a refused attempt (`origin: 'rejected'`): its payload is not an answer.
 */
export function reportText(result: Pick<AgentResult, 'finalReport'>): string | undefined {
  const report = result.finalReport;
  if (report === undefined || report.origin === 'rejected') return undefined;
  if (report.content_json !== undefined && (report.format === 'json' || report.content === undefined)) {
    return JSON.stringify(report.content_json);
  }
  return report.content ?? '';
}

/**
 * The text to answer a chat client with: the report of a successful run, or of one whose json
 * report missed its schema (the model's answer all the same: faces mark it with
 * `mismatchMarker`); else undefined (an error).
 */
export function answerText(
  result: Pick<AgentResult, 'finalReport' | 'success' | 'exitCode'>,
): string | undefined {
  return result.success || schemaMismatch(result) !== undefined ? reportText(result) : undefined;
}

/**
 * The reason a run refused the client's input before any model call (a schema that is not
 * usable or does not fit the context window with the prompt): answered as a 400, not a 500.
 */
export function inputRejection(result: AgentResult): string | undefined {
  return result.inputRejected === true ? (result.error ?? 'the request was refused') : undefined;
}

/** The error text a headend sends when a run ended without a report to answer with. */
export function failureMessage(result: AgentResult): string {
  return `the agent run failed (${result.exitCode}): ${result.error ?? 'no report'}`;
}

/**
 * The validation errors of a report that missed its output schema on every attempt and is
 * handed back anyway (`EXIT-FINAL-REPORT-SCHEMA-MISMATCH`); undefined for every other result.
 */
export function schemaMismatch(
  result: Pick<AgentResult, 'exitCode' | 'finalReport'>,
): ReportValidationError[] | undefined {
  if (result.exitCode !== 'EXIT-FINAL-REPORT-SCHEMA-MISMATCH') return undefined;
  return result.finalReport?.validationErrors;
}

/** The errors of a schema-mismatched report on one line: `/count: must be integer; ...`. */
export function schemaMismatchLine(errors: readonly ReportValidationError[]): string {
  return errors.map((e) => `${e.instancePath === '' ? '/' : e.instancePath}: ${e.message}`).join('; ');
}

/** What the chat faces add to a schema-mismatched answer so a client tells it from a success. */
export interface MismatchMarker {
  success: false;
  exitCode: 'EXIT-FINAL-REPORT-SCHEMA-MISMATCH';
  validationErrors: ReportValidationError[];
}

/**
 * The marker of a schema-mismatched answer (the OpenAI and Anthropic faces' `agent` field, the
 * UI stream's `data-schema-mismatch` part); undefined for every other result.
 */
export function mismatchMarker(
  result: Pick<AgentResult, 'exitCode' | 'finalReport'>,
): MismatchMarker | undefined {
  const errors = schemaMismatch(result);
  if (errors === undefined) return undefined;
  return { success: false, exitCode: 'EXIT-FINAL-REPORT-SCHEMA-MISMATCH', validationErrors: errors };
}
