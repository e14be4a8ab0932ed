import { processFinalReport } from '@agent/final-report';
import {
  type ExpectedOutput,
  type FinalReport,
  type FinalReportSource,
  isFinalReportName,
  REPORT_BACK_TOOL,
  type ToolCall,
} from '@agent/protocol';
import { judgeUnclosed } from '@agent/xml-transport';
import type { AttemptSuccess } from './model-attempt.js';

export type Adoption =
  | {
      kind: 'committed';
      report: FinalReport;
      source: FinalReportSource;
      warnings: string[];
      repairs: string[];
      /** The `report_back` call that carried the report. */
      call?: ToolCall;
    }
  | {
      kind: 'invalid';
      source: FinalReportSource;
      slug: string;
      reason: string;
      diagnostics: string[];
      /** The attempt as the model sent it (tag body, tool arguments, or adopted text), kept if none succeeds. */
      payload: string;
      /** The rejected `report_back` call: it is answered with the reasons. */
      call?: ToolCall;
      /** A JSON payload that parsed but missed the schema: the report it would be, with its errors. */
      parsed?: FinalReport;
    }
  | { kind: 'none' };

export interface AdoptionOptions {
  isFinalTurn: boolean;
  maxOutputTokens?: number | undefined;
  /** The session offers `report_back`: a call of it is a report, ahead of all others. */
  reportBack?: boolean;
  /**
   * A sub-agent (seed 004, decision 4): an answer with no tool call and no report is adopted as
   * its text on any turn, and text that misses a json schema is still adopted (see `asAnswer`).
   */
  answerFromLastMessage?: boolean;
}

/**
 * Finds the final report in one answer. With `reportBack`, a valid `report_back` call wins
 * (seed 004, decision 4: report_back > XML report > last assistant message); then the
 * nonce-tagged XML slot, a native `agent__final_report` call, and only on the final turn the
 * plain text. Whatever is found goes through the three-layer processor; an invalid one comes
 * back with diagnostics (an invalid `report_back` only when nothing else is valid). The
 * report's `origin` says who made it (`declared` or `adopted-text`), its `source` how it came.
 */
export function adoptFinalReport(
  attempt: AttemptSuccess,
  expected: ExpectedOutput,
  options: AdoptionOptions,
): Adoption {
  const backCall =
    options.reportBack === true
      ? attempt.toolCalls.find((call) => call.name === REPORT_BACK_TOOL)
      : undefined;
  if (backCall === undefined) return adoptDeclared(attempt, expected, options);
  const back = fromReportBack(backCall, expected);
  if (back.kind === 'committed') return back;
  const other = adoptDeclared(attempt, expected, options);
  return other.kind === 'committed' ? other : back;
}

/**
 * Whether an answer's plain text may be adopted as its report: on the final turn, and on any
 * turn of a session that answers with its last message (a sub-agent, `answerFromLastMessage`).
 * The slot reader holds such an answer's outside text instead of streaming it as
 * `assistant_text`, so adopted text goes out once, as the report: keep the two on this one rule.
 */
export function textMayBeReport(isFinalTurn: boolean, answerFromLastMessage: boolean): boolean {
  return isFinalTurn || answerFromLastMessage;
}

/** A `report_back` call: its arguments are the JSON payload, validated like a native report's. */
function fromReportBack(call: ToolCall, expected: ExpectedOutput): Adoption {
  const payload = call.rawArguments ?? '';
  if (call.parseError !== undefined) return argumentsNotJson(call, 'report_back', payload);
  const params = { status: 'success', report_format: 'json', content_json: call.arguments };
  const adoption = fromProcessor(
    processFinalReport({ source: 'tool', params }, expected),
    'report_back',
    false,
    call.rawArguments ?? JSON.stringify(call.arguments),
  );
  return adoption.kind === 'none' ? adoption : { ...adoption, call };
}

/** The report the model declared: the XML slot, else a native call, else (final turn) its text. */
function adoptDeclared(
  attempt: AttemptSuccess,
  expected: ExpectedOutput,
  options: AdoptionOptions,
): Adoption {
  if (attempt.slot.found) return fromXmlSlot(attempt, expected, options);
  const nativeCall = attempt.toolCalls.find((call) => isFinalReportName(call.name));
  if (nativeCall !== undefined) return fromNativeCall(nativeCall, expected);
  const text = attempt.slot.outsideText.trim();
  if (text.length === 0) return { kind: 'none' };
  if (options.answerFromLastMessage === true && attempt.toolCalls.length === 0)
    return asAnswer(text, expected);
  if (options.isFinalTurn) {
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

/**
 * A sub-agent's last assistant message as its result (seed 004, decision 4: "report_back
 * result > last assistant message"; the seed takes the message as it is). Text that the format
 * takes (JSON meeting the schema, for `json`) is the report; other text is adopted too, as
 * `partial` with the reasons in `rejection`, so the parent reads the answer and what was wrong
 * instead of a tool error after retries.
 */
function asAnswer(text: string, expected: ExpectedOutput): Adoption {
  const processed = processFinalReport({ source: 'xml', attributes: {}, payload: text }, expected, {
    origin: 'adopted-text',
  });
  const adopted = fromProcessor(processed, 'text', false, text);
  if (adopted.kind !== 'invalid') return adopted;
  const report: FinalReport = {
    status: 'partial',
    format: expected.format,
    content: text,
    ts: Date.now(),
    origin: 'adopted-text',
    source: 'text',
    rejection: { slug: adopted.slug, reason: adopted.reason, diagnostics: adopted.diagnostics },
  };
  const why = [adopted.reason, ...adopted.diagnostics].join('; ');
  return {
    kind: 'committed',
    report,
    source: 'text',
    warnings: [
      `the sub-agent's answer is adopted as text although it does not meet the ${expected.format} format: ${why}`,
    ],
    repairs: [],
  };
}

/** The nonce-tagged slot; an unclosed one is judged by why the answer stopped. */
function fromXmlSlot(attempt: AttemptSuccess, expected: ExpectedOutput, options: AdoptionOptions): Adoption {
  const { slot } = attempt;
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

/** A native `agent__final_report` call, made although the tag is the way to report. */
function fromNativeCall(call: ToolCall, expected: ExpectedOutput): Adoption {
  const payload = call.rawArguments ?? JSON.stringify(call.arguments);
  if (call.parseError !== undefined) return argumentsNotJson(call, 'final_report_tool', payload);
  return fromProcessor(
    processFinalReport({ source: 'tool', params: call.arguments }, expected),
    'final_report_tool',
    false,
    payload,
  );
}

/** A report call whose arguments did not parse: invalid, with the parser's reason. */
function argumentsNotJson(
  call: ToolCall,
  source: 'report_back' | 'final_report_tool',
  payload: string,
): Adoption {
  return {
    kind: 'invalid',
    source,
    slug: 'final_report_arguments_invalid',
    reason: `the ${call.name} arguments are not valid JSON: ${call.parseError}`,
    diagnostics: [],
    payload,
    ...(source === 'report_back' ? { call } : {}),
  };
}

function fromProcessor(
  processed: ReturnType<typeof processFinalReport>,
  source: FinalReportSource,
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
      ...(processed.parsed === undefined ? {} : { parsed: { ...processed.parsed, source } }),
    };
  }
  const warnings = [...processed.warnings];
  if (truncated) warnings.push('the report tag was not closed (output truncated); accepted as it is');
  const report: FinalReport = { ...processed.report, source };
  return { kind: 'committed', report, source, warnings, repairs: [...processed.repairs] };
}
