import type { FinalReport, OutputFormat } from '@agent/protocol';
import { fallbackMessage } from './slack/fallback.js';

export interface SyntheticFailureInput {
  /** Why the session ended without a report (e.g. `max turns reached`). */
  reason: string;
  turnsCompleted: number;
  finalReportAttempts: number;
  /** The model's last normalised stop reason, when there was one. */
  lastStopReason?: string;
  format: OutputFormat;
  /** Clock for `ts`; defaults to `Date.now`. */
  now?: () => number;
}

/**
 * The report a session makes itself when the model gave none: status `failure`,
 * `synthetic: true`, `origin: 'synthetic'`, and content saying why. `json` gets `content_json` =
 * `{ error, turnsCompleted, finalReportAttempts, lastStopReason }` (and its JSON text in
 * `content`); `slack-block-kit` gets one section; every other format gets the text.
 */
export function syntheticFailureReport(input: SyntheticFailureInput): FinalReport {
  const stop = input.lastStopReason ?? 'none';
  const text = [
    'The session ended without a final report.',
    `Reason: ${input.reason}`,
    `Turns completed: ${input.turnsCompleted}`,
    `Final report attempts: ${input.finalReportAttempts}`,
    `Last stop reason: ${stop}`,
  ].join('\n');
  const base = {
    status: 'failure',
    format: input.format,
    ts: (input.now ?? Date.now)(),
    synthetic: true,
    origin: 'synthetic',
  } as const;
  if (input.format === 'json') {
    const contentJson = {
      error: input.reason,
      turnsCompleted: input.turnsCompleted,
      finalReportAttempts: input.finalReportAttempts,
      lastStopReason: input.lastStopReason ?? null,
    };
    return { ...base, content: JSON.stringify(contentJson, null, 2), content_json: contentJson };
  }
  if (input.format === 'slack-block-kit') {
    const messages = [fallbackMessage(text)];
    return { ...base, content: JSON.stringify(messages), content_json: { messages } };
  }
  return { ...base, content: text };
}
