import type {
  AssistantMessage,
  ModelRequest,
  ToolChoice,
  ToolResultMessage,
  UserMessage,
} from '@agent/protocol';
import type OpenAI from 'openai';
import { argumentsForHistory, imageDataUrl, imagePartsOf } from '../content-parts.js';
import { effortOf } from '../reasoning-budget.js';

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
type ContentPart = OpenAI.Chat.ChatCompletionContentPart;
export type ChatBody = Omit<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, 'stream'>;

export interface ChatRequestOptions {
  model: string;
  /** `max_completion_tokens` for OpenAI (reasoning models need it), `max_tokens` for other servers. */
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
  /** Send earlier reasoning back under this assistant-message field (DeepSeek, Moonshot). */
  reasoningField?: 'reasoning_content' | 'reasoning';
  extraBody?: Record<string, unknown>;
}

function userContent(message: UserMessage): string | ContentPart[] {
  if (!message.parts || message.parts.length === 0) return message.content;
  const parts: ContentPart[] = [];
  if (message.content !== '') parts.push({ type: 'text', text: message.content });
  for (const part of message.parts) {
    if (part.type === 'text') parts.push({ type: 'text', text: part.text });
    else parts.push({ type: 'image_url', image_url: { url: imageDataUrl(part) } });
  }
  return parts;
}

function assistantMessage(message: AssistantMessage, reasoningField: string | undefined): ChatMessage {
  const calls = message.toolCalls ?? [];
  const out: OpenAI.Chat.ChatCompletionAssistantMessageParam = {
    role: 'assistant',
    content: message.content === '' && calls.length > 0 ? null : message.content,
  };
  if (calls.length > 0) {
    out.tool_calls = calls.map((call) => ({
      id: call.id,
      type: 'function' as const,
      function: { name: call.name, arguments: argumentsForHistory(call) },
    }));
  }
  if (reasoningField && message.reasoning && message.reasoning.length > 0) {
    const text = message.reasoning.map((part) => part.text).join('');
    if (text !== '') (out as unknown as Record<string, unknown>)[reasoningField] = text;
  }
  return out;
}

/**
 * Chat Completions tool messages carry text only, so images a tool returned go in one user
 * message right after the run of tool messages, labelled with the call they belong to.
 */
function toolImagesMessage(results: readonly ToolResultMessage[]): ChatMessage | undefined {
  const parts: ContentPart[] = [];
  for (const result of results) {
    const images = imagePartsOf(result.parts);
    if (images.length === 0) continue;
    parts.push({
      type: 'text',
      text: `Images returned by tool ${result.toolName} (call ${result.toolCallId}):`,
    });
    for (const image of images) parts.push({ type: 'image_url', image_url: { url: imageDataUrl(image) } });
  }
  return parts.length > 0 ? { role: 'user', content: parts } : undefined;
}

export function chatMessages(request: ModelRequest, reasoningField?: string): ChatMessage[] {
  const out: ChatMessage[] = [];
  let toolRun: ToolResultMessage[] = [];
  const flushToolImages = (): void => {
    if (toolRun.length === 0) return;
    const images = toolImagesMessage(toolRun);
    if (images) out.push(images);
    toolRun = [];
  };
  for (const message of request.messages) {
    if (message.role !== 'tool') flushToolImages();
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: message.content });
        break;
      case 'user':
        out.push({ role: 'user', content: userContent(message) });
        break;
      case 'assistant':
        out.push(assistantMessage(message, reasoningField));
        break;
      case 'tool':
        out.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.content });
        toolRun.push(message);
        break;
    }
  }
  flushToolImages();
  return out;
}

function toolChoice(choice: ToolChoice): OpenAI.Chat.ChatCompletionToolChoiceOption {
  if (typeof choice === 'string') return choice;
  return { type: 'function', function: { name: choice.name } };
}

/** The request body (without `stream`), built once per call. */
export function buildChatBody(request: ModelRequest, options: ChatRequestOptions): ChatBody {
  const body: ChatBody = { model: options.model, messages: chatMessages(request, options.reasoningField) };
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function' as const,
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    }));
    if (request.toolChoice !== undefined) body.tool_choice = toolChoice(request.toolChoice);
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.maxOutputTokens !== undefined) body[options.maxTokensField] = request.maxOutputTokens;
  const effort = effortOf(request.reasoning);
  if (effort !== undefined) body.reasoning_effort = effort;
  if (options.extraBody) Object.assign(body, options.extraBody);
  return body;
}
