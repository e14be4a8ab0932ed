import {
  clampText,
  normaliseMessages,
  SLACK_LIMITS,
  type SlackMessage,
  slackPlainText,
} from '@agent/final-report';
import type { AgentEvent, AgentEventMeta, AgentResult } from '@agent/protocol';
import { guardrailTrip } from '../guardrail-trip.js';
import { reportText, schemaMismatch, schemaMismatchLine } from '../usage.js';

/** Longest error text posted to Slack. */
const MAX_ERROR_TEXT = 300;

export const WORKING_TEXT = ':hourglass_flowing_sand: Working on it…';

/** The line the progress message shows for an event, if it says something new. */
export function progressLine(event: AgentEvent, meta: AgentEventMeta): string | undefined {
  const who = meta.isMaster ? '' : ` (${meta.agentPath})`;
  if (event.type === 'status' && event.event.type === 'agent_update') {
    const what = event.event.now ?? event.event.message;
    return what === '' ? undefined : `${WORKING_TEXT}\n_${clampText(what, 500)}_${who}`;
  }
  if (event.type === 'progress' && event.event.type === 'tool_started') {
    return `${WORKING_TEXT}\nrunning \`${event.event.tool}\`${who}`;
  }
  return undefined;
}

/**
 * The report as Slack messages. The run asked for `slack-block-kit`, so the report's messages
 * were already coerced, clamped and given a fallback by `@agent/final-report`; going through
 * `normaliseMessages` again keeps any other report (plain text, json as a code block: an agent
 * may keep its own json contract) within Slack's limits too.
 */
export function reportMessages(result: AgentResult): SlackMessage[] {
  const report = result.finalReport;
  if (report?.format === 'json') {
    // In a code block: the bare JSON text would decode to an object that is no Slack message.
    return normaliseMessages(`\`\`\`\n${report.content ?? reportText(result) ?? ''}\n\`\`\``, []);
  }
  const value =
    report?.format === 'slack-block-kit' && report.content_json !== undefined
      ? report.content_json
      : reportText(result);
  return normaliseMessages(value ?? '', []);
}

/** A message's plain-text `text` (notifications, screen readers): its own, or its blocks' text. */
export function fallbackText(message: SlackMessage): string {
  const text = message.text ?? slackPlainText(message.blocks);
  return clampText(text.trim() === '' ? 'Answer' : text, SLACK_LIMITS.messageText);
}

/** The one short line posted when a run gives no answer: what happened, never a stack. */
export function shortError(result: AgentResult): string {
  const trip = guardrailTrip(result);
  // The guardrail and its reason only: the reason names a rule, never the text it blocked.
  if (trip !== undefined) return `:no_entry: ${clampText(trip.message, MAX_ERROR_TEXT)}`;
  const why = (result.error ?? 'no report').split('\n')[0]?.trim() ?? '';
  return `:warning: The agent could not answer (${result.exitCode}): ${clampText(why, MAX_ERROR_TEXT)}`;
}

/**
 * The note posted in the thread after a report that missed its output schema: the exit code
 * and the first errors, one short line. Undefined for every other result.
 */
export function mismatchNote(result: AgentResult): string | undefined {
  const errors = schemaMismatch(result);
  if (errors === undefined) return undefined;
  const why = clampText(schemaMismatchLine(errors), MAX_ERROR_TEXT);
  return `:warning: This answer does not match the output schema (${result.exitCode}): ${why}`;
}
