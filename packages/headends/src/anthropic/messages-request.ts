import type { JsonSchema, OutputFormat } from '@agent/protocol';
import { conversationIdProblem } from '@agent/protocol/util';
import { contentText, type SplitChat, splitChat } from '../conversation.js';
import { requestSchemaProblem } from '../schema-guard.js';

/** A validated Anthropic messages request. */
export interface MessagesRequest extends SplitChat {
  model: string;
  stream: boolean;
  format?: OutputFormat;
  schema?: JsonSchema;
  /** The `x-agent-conversation-id` header: the conversation the run continues. */
  conversationId?: string;
}

/**
 * The request header that names a conversation on the Anthropic face. Anthropic's `metadata`
 * takes only `user_id` (the SDK's types and the real API refuse other keys), so the face reads
 * a header the SDK sends with `{ headers }` on any call.
 */
export const CONVERSATION_HEADER = 'x-agent-conversation-id';

/** Validates an Anthropic messages body; a string is the 400 message. */
export async function parseMessagesRequest(
  body: Record<string, unknown>,
  conversationId?: string,
): Promise<MessagesRequest | string> {
  if (typeof body.model !== 'string' || body.model === '') return '"model" must be the name of an agent';
  if (body.tools !== undefined) {
    return 'this server runs agents with their own tools; requests may not bring "tools"';
  }
  if (!Array.isArray(body.messages)) return '"messages" must be an array';
  const messages: { role: string; text: string }[] = [];
  if (body.system !== undefined) {
    const system = contentText(body.system);
    if (system === undefined) return '"system" must be a string or an array of text blocks';
    if (system !== '') messages.push({ role: 'system', text: system });
  }
  for (const [index, raw] of body.messages.entries()) {
    if (typeof raw !== 'object' || raw === null) return `messages[${index}] must be an object`;
    const { role, content } = raw as { role?: unknown; content?: unknown };
    if (role !== 'user' && role !== 'assistant')
      return `messages[${index}].role must be "user" or "assistant"`;
    const text = contentText(content);
    if (text === undefined) return `messages[${index}].content must be a string or an array of text blocks`;
    messages.push({ role, text });
  }
  const split = splitChat(messages);
  if (typeof split === 'string') return split;
  const request: MessagesRequest = { ...split, model: body.model, stream: body.stream === true };
  if (conversationId !== undefined) {
    const problem = conversationIdProblem(conversationId);
    if (problem !== undefined) return `${CONVERSATION_HEADER}: ${problem}`;
    request.conversationId = conversationId;
  }
  const outputFormat = body.output_format as { type?: unknown; schema?: unknown } | undefined;
  if (outputFormat !== undefined && outputFormat !== null) {
    if (
      outputFormat.type !== 'json_schema' ||
      typeof outputFormat.schema !== 'object' ||
      outputFormat.schema === null
    ) {
      return 'output_format must be { type: "json_schema", schema: {...} }';
    }
    request.format = 'json';
    const problem = await requestSchemaProblem(outputFormat.schema, 'output_format.schema');
    if (problem !== undefined) return problem;
    request.schema = outputFormat.schema as JsonSchema;
  }
  return request;
}
