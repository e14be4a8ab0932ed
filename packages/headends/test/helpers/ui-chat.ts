import { DefaultChatTransport, type UIMessage, type UIMessageChunk } from 'ai';

/** Sends one user message to a REST headend's `/api/chat` with the AI SDK's own transport. */
export function sendUiChat(
  url: string,
  token: string,
  text: string,
): Promise<ReadableStream<UIMessageChunk>> {
  const transport = new DefaultChatTransport<UIMessage>({
    api: `${url}/api/chat`,
    headers: { authorization: `Bearer ${token}` },
  });
  return transport.sendMessages({
    trigger: 'submit-message',
    chatId: 'chat-1',
    messageId: undefined,
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text }] }],
    abortSignal: undefined,
  });
}
