import type { ConversationMessage } from '@agent/protocol';

/** Written in scripted text, replaced by the session's nonce: lets static script files end a session. */
export const NONCE_PLACEHOLDER = '{{NONCE}}';

const TAG_PATTERN = /ai-agent-([A-Za-z0-9_-]{1,64})-FINAL/;

/** The nonce the session told the model about, from the newest message that mentions a FINAL tag. */
export function sessionNonce(messages: readonly ConversationMessage[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'user' && message.role !== 'system') continue;
    const match = TAG_PATTERN.exec(message.content);
    if (match !== null) return match[1];
  }
  return undefined;
}

/** Replaces every `{{NONCE}}` in the texts; leaves them as they are when no nonce was sent. */
export function fillNonce(texts: string[], messages: readonly ConversationMessage[]): string[] {
  if (!texts.some((text) => text.includes(NONCE_PLACEHOLDER))) return texts;
  const nonce = sessionNonce(messages);
  if (nonce === undefined) return texts;
  return texts.map((text) => text.replaceAll(NONCE_PLACEHOLDER, nonce));
}
