import type { FinalReportStatus, OutputFormat } from '@agent/protocol';
import { NONCE_PLACEHOLDER } from './nonce-placeholder.js';
import type { ScriptedAnswer, ScriptedToolCall } from './steps.js';

// Steps a test or a README writes instead of the wire text: the FINAL tag, its nonce and its
// attributes are the testkit's business, not the reader's.

/** Options of `finalReport`. */
export interface FinalReportStepOptions {
  /** Default `json` for an object, else `markdown`. */
  format?: OutputFormat;
  /** Default `success`. */
  status?: FinalReportStatus;
  /** Extra fields of the answer (usage, delays, reasoning, ...). */
  answer?: Omit<ScriptedAnswer, 'text'>;
}

/** The FINAL tag's opening and closing text, with the nonce placeholder the testkit fills in. */
function finalTag(format: OutputFormat, status: FinalReportStatus): { open: string; close: string } {
  const tag = `ai-agent-${NONCE_PLACEHOLDER}-FINAL`;
  return {
    open: `<${tag} tool="agent__final_report" status="${status}" format="${format}">`,
    close: `</${tag}>`,
  };
}

/**
 * A model answer that is the session's final report: `content` (text, or an object sent as
 * JSON) in the FINAL tag with the session's nonce (filled in by the testkit, in-process and over
 * HTTP).
 */
export function finalReport(content: string | object, options: FinalReportStepOptions = {}): ScriptedAnswer {
  const payload = typeof content === 'string' ? content : JSON.stringify(content);
  const format = options.format ?? (typeof content === 'string' ? 'markdown' : 'json');
  const { open, close } = finalTag(format, options.status ?? 'success');
  return { ...options.answer, text: `${open}${payload}${close}` };
}

/** Options of `streamedFinalReport`. */
export interface StreamedFinalReportOptions extends FinalReportStepOptions {
  /**
   * Leave the tag open: the model is still writing its report when the stream is cut (an abort,
   * a client that goes away, `error.midStream`). Default false.
   */
  unclosed?: boolean;
}

/**
 * A final report the model streams: the opening tag, then each piece as its own text delta, then
 * the closing tag (unless `unclosed`). Format default `markdown`.
 */
export function streamedFinalReport(
  pieces: readonly string[],
  options: StreamedFinalReportOptions = {},
): ScriptedAnswer {
  const { open, close } = finalTag(options.format ?? 'markdown', options.status ?? 'success');
  return { ...options.answer, text: [open, ...pieces, ...(options.unclosed === true ? [] : [close])] };
}

/** A model answer that calls one tool; more calls with `toolCalls`. */
export function toolCall(
  name: string,
  args: Record<string, unknown> | string = {},
  options: Omit<ScriptedToolCall, 'name' | 'arguments'> & { answer?: Omit<ScriptedAnswer, 'toolCalls'> } = {},
): ScriptedAnswer {
  const { answer, ...call } = options;
  return { ...answer, toolCalls: [{ ...call, name, arguments: args }] };
}

/** A model answer that calls several tools at once: `toolCalls(['a', { x: 1 }], ['b'])`. */
export function toolCalls(
  ...calls: [name: string, args?: Record<string, unknown> | string][]
): ScriptedAnswer {
  return { toolCalls: calls.map(([name, args]) => ({ name, arguments: args ?? {} })) };
}

/** A plain-text answer; several parts stream as separate deltas. */
export function text(...parts: [string, ...string[]]): ScriptedAnswer {
  return { text: parts.length === 1 ? parts[0] : parts };
}
