import type { ConversationMessage, FinalReportStatus, OutputFormat } from '@agent/protocol';
import { finalReport, NONCE_PLACEHOLDER, sessionNonce } from '@agent/testkit';

/** The FINAL tag answer (the testkit's builder) for the session that sent `messages`. */
export function finalAnswer(
  messages: readonly ConversationMessage[],
  payload: string,
  format: OutputFormat = 'markdown',
  status: FinalReportStatus = 'success',
): string {
  const nonce = sessionNonce(messages);
  if (nonce === undefined) throw new Error('no nonce in the request');
  return String(finalReport(payload, { format, status }).text).replaceAll(NONCE_PLACEHOLDER, nonce);
}
