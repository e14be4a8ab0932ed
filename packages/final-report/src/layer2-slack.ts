import { parseJsonLenient } from './json-lenient.js';
import { resolvePayloadText } from './payload-text.js';
import { fallbackMessage, recoverText } from './slack/fallback.js';
import { normaliseMessages } from './slack/normalise.js';
import { slackSchemaProblems } from './slack/schema.js';
import { truncatedFailure } from './truncation.js';
import type { FormatResult, ProcessOptions, RawPayload } from './types.js';

/**
 * Layer 2 for `slack-block-kit`: parse (preferring the outer array), coerce the message
 * structure, convert Markdown to mrkdwn, clamp lengths, validate against the Block Kit
 * schema, and when nothing usable is left fall back to one safe section holding the
 * text that could be recovered (or the raw payload). Only an empty payload, invalid
 * base64 or a truncated answer are errors.
 */
export function processSlackFormat(payload: RawPayload, options: ProcessOptions): FormatResult {
  if (options.truncated === true) return truncatedFailure('slack-block-kit', options);
  const repairs: string[] = [];
  const warnings: string[] = [];
  let value: unknown;
  let rawText: string;
  if (payload.kind === 'value') {
    value = payload.value;
    rawText = recoverText(value);
  } else {
    const text = resolvePayloadText(payload);
    if (!text.ok) return text;
    repairs.push(...text.repairs);
    rawText = text.text;
    if (payload.field === 'report_content' || payload.field === 'content') {
      repairs.push(`used ${payload.field} because messages is missing`);
    }
    const parsed = parseJsonLenient(rawText, { preferArray: true, unwrapStringified: true });
    if (parsed.ok) {
      repairs.push(...parsed.repairs);
      value = parsed.value;
    } else {
      value = rawText;
      if (/[[{]/.test(rawText))
        warnings.push(`the Slack payload is not valid JSON (${parsed.error}); sent as text`);
    }
  }

  const before = repairs.length;
  let messages = normaliseMessages(value, repairs);
  if (messages.length > 0) {
    const problems = slackSchemaProblems(messages);
    if (problems.length > 0) {
      warnings.push(
        `the Slack messages still break the Block Kit schema (${problems[0]}); sent one section instead`,
      );
      messages = [];
    }
  }
  if (messages.length === 0) {
    const recovered = recoverText(value).trim() || rawText.trim();
    if (recovered === '') {
      return {
        ok: false,
        slug: 'final_report_empty',
        reason: 'the final report is empty: the Slack messages hold no text',
        diagnostics: ['messages: send at least one message with at least one block that has text'],
      };
    }
    repairs.push('replaced the unusable Slack payload with one section holding its text');
    // A warning (logged by the session), naming the first thing that was wrong: the user
    // gets a plain section instead of the layout the model wrote.
    const why = warnings.length > 0 ? undefined : (repairs[before] ?? 'it holds no Slack messages');
    if (why !== undefined) {
      warnings.push(
        `the Slack payload has no valid Block Kit message (${why}); sent one section holding its text instead`,
      );
    }
    messages = [fallbackMessage(recovered)];
  }
  return { ok: true, contentJson: { messages }, content: JSON.stringify(messages), repairs, warnings };
}
