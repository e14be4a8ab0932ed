import { type ReportFormat, STRUCTURED_REPORT_FORMATS } from './formats.js';
import type { FinalSlotResult } from './slot-events.js';

/** What to do with a report: take it, take it knowing it was cut off, or refuse it. */
export type UnclosedVerdict = 'accept' | 'accept-truncated' | 'reject';

export interface UnclosedJudgement {
  verdict: UnclosedVerdict;
  /** Stable identifier for logs and retry notices. */
  slug:
    | 'xml_final_closed'
    | 'xml_final_missing'
    | 'xml_final_unclosed_stop'
    | 'xml_final_unclosed_unknown_stop'
    | 'xml_structured_output_truncated'
    | 'xml_text_output_truncated';
  /** One sentence for logs; for a rejection, worded so it can be shown to the model. */
  reason: string;
  /** True when the caller should log a warning (accepted, but not cleanly). */
  warn: boolean;
}

export interface JudgeUnclosedOptions {
  /** The provider's stop reason, normalised or raw (`stop`, `end_turn`, `length`, `max_tokens`, ...). */
  stopReason: string | undefined;
  /** The report format the session expects. */
  format: ReportFormat;
  /** The request's output token limit, quoted in the truncation reason when given. */
  maxOutputTokens?: number;
}

/** Stop reasons of a model that finished on its own. */
const NORMAL_STOPS = new Set(['stop', 'end_turn', 'end', 'eos', 'stop_sequence']);
/** Stop reasons of a model cut off by the output token limit. */
const TRUNCATION_STOPS = new Set(['length', 'max_tokens', 'max_output_tokens']);

/**
 * Decides whether a report whose closing tag never came can be used:
 *
 * | stop reason | json, slack-block-kit | text formats (and sub-agent) |
 * | --- | --- | --- |
 * | stop, end_turn, end, eos, stop_sequence | accept | accept |
 * | length, max_tokens, max_output_tokens | reject (`xml_structured_output_truncated`) | accept-truncated |
 * | anything else, or none | accept, warn | accept, warn |
 *
 * A closed report is always `accept`; no report at all is `reject` (`xml_final_missing`).
 * Use `.verdict` for the decision alone.
 */
export function judgeUnclosed(result: FinalSlotResult, options: JudgeUnclosedOptions): UnclosedJudgement {
  if (!result.found) {
    return {
      verdict: 'reject',
      slug: 'xml_final_missing',
      reason: 'no final report tag in the response',
      warn: false,
    };
  }
  if (result.closed) {
    return {
      verdict: 'accept',
      slug: 'xml_final_closed',
      reason: 'the final report tag is closed',
      warn: false,
    };
  }
  const raw = options.stopReason ?? '';
  const stop = raw.toLowerCase();
  if (NORMAL_STOPS.has(stop)) {
    return {
      verdict: 'accept',
      slug: 'xml_final_unclosed_stop',
      reason: `the final report tag was not closed, but the model stopped normally (stop reason "${raw}")`,
      warn: false,
    };
  }
  if (TRUNCATION_STOPS.has(stop)) {
    const limit =
      options.maxOutputTokens === undefined
        ? 'token_limit reached'
        : `token_limit: ${options.maxOutputTokens} tokens`;
    if (STRUCTURED_REPORT_FORMATS.includes(options.format)) {
      return {
        verdict: 'reject',
        slug: 'xml_structured_output_truncated',
        reason: `the ${options.format} final report was cut off by the output token limit before its closing tag (stop reason "${raw}", ${limit}); send a shorter report`,
        warn: false,
      };
    }
    return {
      verdict: 'accept-truncated',
      slug: 'xml_text_output_truncated',
      reason: `the ${options.format} final report was cut off by the output token limit (stop reason "${raw}", ${limit}); kept as truncated`,
      warn: true,
    };
  }
  return {
    verdict: 'accept',
    slug: 'xml_final_unclosed_unknown_stop',
    reason: `the final report tag was not closed and the stop reason ${raw === '' ? 'is unknown' : `"${raw}" is not recognised`}; accepted as is`,
    warn: true,
  };
}
