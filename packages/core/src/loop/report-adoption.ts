import { processFinalReport } from '@agent/final-report';
import { type ExpectedOutput, FINAL_REPORT_TOOL, type FinalReport } from '@agent/protocol';
import { judgeUnclosed } from '@agent/xml-transport';
import type { AttemptSuccess } from './model-attempt.js';

export type ReportSource = 'xml' | 'tool' | 'text';

export type Adoption =
  | { kind: 'committed'; report: FinalReport; source: ReportSource; warnings: string[]; repairs: string[] }
  | {
      kind: 'invalid';
      source: ReportSource;
      slug: string;
      reason: string;
      diagnostics: string[];
      /** The attempt as the model sent it (tag body, tool arguments, or adopted text), kept if none succeeds. */
      payload: string;
    }
  | { kind: 'none' };

/**
 * Finds the final report in one answer: the nonce-tagged XML slot first, then a native
 * `agent__final_report` call, and only on the final turn the plain text. Whatever is found
 * goes through the three-layer processor; an invalid one comes back with diagnostics. The
 * report's `origin` says which: `declared` (slot or tool call) or `adopted-text`.
 */
export function adoptFinalReport(
  attempt: AttemptSuccess,
  expected: ExpectedOutput,
  options: { isFinalTurn: boolean; maxOutputTokens?: number | undefined },
): Adoption {
  const { slot } = attempt;
  if (slot.found) {
    let truncated = false;
    if (!slot.closed) {
      const judged = judgeUnclosed(slot.raw, {
        stopReason: attempt.rawStopReason ?? attempt.stopReason ?? 'unknown',
        format: expected.format,
        ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
      });
      if (judged.verdict === 'reject') {
        return {
          kind: 'invalid',
          source: 'xml',
          slug: judged.slug,
          reason: judged.reason,
          diagnostics: [],
          payload: slot.payload,
        };
      }
      truncated = judged.verdict === 'accept-truncated';
    }
    return fromProcessor(
      processFinalReport({ source: 'xml', attributes: slot.attributes, payload: slot.payload }, expected),
      'xml',
      truncated,
      slot.payload,
    );
  }
  const nativeCall = attempt.toolCalls.find((call) => call.name === FINAL_REPORT_TOOL);
  if (nativeCall !== undefined) {
    const payload = nativeCall.rawArguments ?? JSON.stringify(nativeCall.arguments);
    if (nativeCall.parseError !== undefined) {
      return {
        kind: 'invalid',
        source: 'tool',
        slug: 'final_report_arguments_invalid',
        reason: `the ${FINAL_REPORT_TOOL} arguments are not valid JSON: ${nativeCall.parseError}`,
        diagnostics: [],
        payload,
      };
    }
    return fromProcessor(
      processFinalReport({ source: 'tool', params: nativeCall.arguments }, expected),
      'tool',
      false,
      payload,
    );
  }
  const text = slot.outsideText.trim();
  if (options.isFinalTurn && text.length > 0) {
    return fromProcessor(
      processFinalReport({ source: 'xml', attributes: {}, payload: text }, expected, {
        origin: 'adopted-text',
      }),
      'text',
      false,
      text,
    );
  }
  return { kind: 'none' };
}

function fromProcessor(
  processed: ReturnType<typeof processFinalReport>,
  source: ReportSource,
  truncated: boolean,
  payload: string,
): Adoption {
  if (!processed.ok) {
    return {
      kind: 'invalid',
      source,
      slug: processed.slug,
      reason: processed.reason,
      diagnostics: [...processed.diagnostics],
      payload,
    };
  }
  const warnings = [...processed.warnings];
  if (truncated) warnings.push('the report tag was not closed (output truncated); accepted as it is');
  return { kind: 'committed', report: processed.report, source, warnings, repairs: [...processed.repairs] };
}
