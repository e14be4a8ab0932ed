import type { ConversationMessage } from '@agent/protocol';
import { sessionNonce } from '@agent/testkit';

/** The FINAL tag answer for the session that sent `messages`. */
export function finalAnswer(
  messages: readonly ConversationMessage[],
  payload: string,
  format = 'markdown',
  status = 'success',
): string {
  const nonce = sessionNonce(messages);
  if (nonce === undefined) throw new Error('no nonce in the request');
  const tag = `ai-agent-${nonce}-FINAL`;
  return `<${tag} tool="agent__final_report" status="${status}" format="${format}">${payload}</${tag}>`;
}
