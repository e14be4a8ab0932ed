import type { JsonSchema, OutputFormat } from '@agent/protocol';
import { conversationIdProblem } from '@agent/protocol/util';
import { contentText, type SplitChat, splitChat } from '../conversation.js';
import { requestSchemaProblem } from '../schema-guard.js';

/** A validated chat completions request. */
export interface ChatRequest extends SplitChat {
  model: string;
  stream: boolean;
  includeUsage: boolean;
  format?: OutputFormat;
  schema?: JsonSchema;
  /** `metadata.conversation_id`: the conversation the run continues. */
  conversationId?: string;
}

/** Validates an OpenAI chat completions body; a string is the 400 message. */
export async function parseChatRequest(body: Record<string, unknown>): Promise<ChatRequest | string> {
  if (typeof body.model !== 'string' || body.model === '') return '"model" must be the name of an agent';
  if (body.tools !== undefined || body.functions !== undefined) {
    return 'this server runs agents with their own tools; requests may not bring "tools" or "functions"';
  }
  if (!Array.isArray(body.messages)) return '"messages" must be an array';
  const messages: { role: string; text: string }[] = [];
  for (const [index, raw] of body.messages.entries()) {
    if (typeof raw !== 'object' || raw === null) return `messages[${index}] must be an object`;
    const { role, content } = raw as { role?: unknown; content?: unknown };
    if (typeof role !== 'string') return `messages[${index}].role must be a string`;
    if (role === 'tool' || role === 'function') {
      return `messages[${index}]: role "${role}" is not accepted (the agent runs its own tools)`;
    }
    const text = contentText(content);
    if (text === undefined) return `messages[${index}].content must be a string or an array of text parts`;
    messages.push({ role, text });
  }
  const split = splitChat(messages);
  if (typeof split === 'string') return split;
  const options = body.stream_options as { include_usage?: unknown } | undefined;
  const request: ChatRequest = {
    ...split,
    model: body.model,
    stream: body.stream === true,
    includeUsage: options?.include_usage === true,
  };
  if (body.metadata !== undefined && body.metadata !== null) {
    if (typeof body.metadata !== 'object' || Array.isArray(body.metadata)) {
      return '"metadata" must be an object of string values';
    }
    const id = (body.metadata as Record<string, unknown>).conversation_id;
    if (id !== undefined) {
      const problem = conversationIdProblem(id);
      if (problem !== undefined) return `metadata.conversation_id: ${problem}`;
      request.conversationId = id as string;
    }
  }
  const responseFormat = body.response_format as
    | { type?: unknown; json_schema?: { schema?: unknown } }
    | undefined;
  if (responseFormat !== undefined && responseFormat !== null) {
    if (responseFormat.type === 'json_schema') {
      const schema = responseFormat.json_schema?.schema;
      if (typeof schema !== 'object' || schema === null) {
        return 'response_format.json_schema.schema must be a JSON Schema object';
      }
      request.format = 'json';
      const problem = await requestSchemaProblem(schema, 'response_format.json_schema.schema');
      if (problem !== undefined) return problem;
      request.schema = schema as JsonSchema;
    } else if (responseFormat.type === 'json_object') {
      request.format = 'json';
    } else if (responseFormat.type !== 'text') {
      return `response_format.type must be text, json_object or json_schema, not ${JSON.stringify(responseFormat.type)}`;
    }
  }
  return request;
}
