import { FINAL_REPORT_TOOL, REPORT_BACK_TOOL } from '@agent/protocol';
import { finalTagName, type IgnoredTag } from '@agent/xml-transport';

/** Told to the model after its final report was rejected. */
export function invalidReportNotice(nonce: string, reason: string, diagnostics: readonly string[]): string {
  const tag = finalTagName(nonce);
  const lines = [`Your final report was not accepted: ${reason}`];
  if (diagnostics.length > 0) lines.push('Fix these problems:', ...diagnostics.map((d) => `- ${d}`));
  lines.push(`Send the complete, corrected final report again inside <${tag} ...> ... </${tag}>.`);
  return lines.join('\n');
}

/** Told to the model after an answer with neither tool calls nor a final report. */
export function plainTextNotice(nonce: string): string {
  const tag = finalTagName(nonce);
  return `Your last answer was plain text, which does not end the task. Call tools natively to continue, or send your final report inside <${tag} ...> ... </${tag}>.`;
}

/** Told to the model when its answer held report tags that were not taken, each with why. */
export function ignoredTagsNotice(nonce: string, ignored: readonly IgnoredTag[]): string {
  const tag = finalTagName(nonce);
  const lines = ['Your last answer held no final report: a report tag in it was ignored.'];
  for (const item of ignored) lines.push(`- ${item.reason}`);
  lines.push(
    `Send the report inside <${tag} tool="${FINAL_REPORT_TOOL}" status="..." format="..."> ... </${tag}>, or call tools natively to continue.`,
  );
  return lines.join('\n');
}

/** Told to the model when it called tools on the final turn, where none can run. */
export function toolsOnFinalTurnNotice(nonce: string): string {
  const tag = finalTagName(nonce);
  return `No tools can run now: this is the final turn. Send your final report inside <${tag} ...> ... </${tag}> with what you have.`;
}

/** Told to the model when its answer was empty. */
export const EMPTY_ANSWER_NOTICE = 'Your last answer was empty. Continue the task.';

/** The tool message answering a `report_back` call whose arguments were rejected. */
export function reportBackRejection(rejected: { reason: string; diagnostics: readonly string[] }): string {
  const problems = rejected.diagnostics.length > 0 ? `; ${rejected.diagnostics.join('; ')}` : '';
  return `(tool failed: ${rejected.reason}${problems}. Fix the arguments and call ${REPORT_BACK_TOOL} again.)`;
}
