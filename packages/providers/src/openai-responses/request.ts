import type {
  AssistantMessage,
  ContentPart,
  ModelRequest,
  ReasoningPart,
  ToolChoice,
  ToolResultMessage,
} from '@agent/protocol';
import type OpenAI from 'openai';
import { argumentsForHistory, imageDataUrl } from '../content-parts.js';
import { effortOf } from '../reasoning-budget.js';

type InputItem = OpenAI.Responses.ResponseInputItem;
type InputContent = OpenAI.Responses.ResponseInputContent;
export type ResponsesBody = Omit<OpenAI.Responses.ResponseCreateParamsNonStreaming, 'stream'>;

export interface ResponsesRequestOptions {
  model: string;
  reasoningSummary: 'auto' | 'concise' | 'detailed' | 'none';
  extraBody?: Record<string, unknown>;
}

/** What a Responses reasoning item leaves in `ReasoningPart.providerData`. */
export interface ResponsesReasoningData {
  api: 'openai-responses';
  itemId: string;
  encryptedContent?: string;
}

export function responsesReasoningData(part: ReasoningPart): ResponsesReasoningData | undefined {
  const data = part.providerData;
  if (data?.api !== 'openai-responses' || typeof data.itemId !== 'string') return undefined;
  return data as unknown as ResponsesReasoningData;
}

function inputContent(text: string, parts: readonly ContentPart[] | undefined): string | InputContent[] {
  if (!parts || parts.length === 0) return text;
  const content: InputContent[] = [];
  if (text !== '') content.push({ type: 'input_text', text });
  for (const part of parts) {
    if (part.type === 'text') content.push({ type: 'input_text', text: part.text });
    else content.push({ type: 'input_image', image_url: imageDataUrl(part), detail: 'auto' });
  }
  return content;
}

/**
 * An assistant turn as input items: its reasoning items first (only those with encrypted
 * content can be replayed when nothing is stored server-side), then its text, then its calls.
 */
function assistantItems(message: AssistantMessage, out: InputItem[]): void {
  for (const part of message.reasoning ?? []) {
    const data = responsesReasoningData(part);
    if (!data?.encryptedContent) continue;
    out.push({
      type: 'reasoning',
      id: data.itemId,
      encrypted_content: data.encryptedContent,
      summary: part.text === '' ? [] : [{ type: 'summary_text', text: part.text }],
    });
  }
  if (message.content !== '') out.push({ type: 'message', role: 'assistant', content: message.content });
  for (const call of message.toolCalls ?? []) {
    out.push({
      type: 'function_call',
      call_id: call.id,
      name: call.name,
      arguments: argumentsForHistory(call),
    });
  }
}

function toolOutput(message: ToolResultMessage): InputItem {
  const output = inputContent(message.content, message.parts);
  return {
    type: 'function_call_output',
    call_id: message.toolCallId,
    output:
      typeof output === 'string' ? output : (output as OpenAI.Responses.ResponseFunctionCallOutputItemList),
  };
}

export function responsesInput(request: ModelRequest): InputItem[] {
  const items: InputItem[] = [];
  for (const message of request.messages) {
    switch (message.role) {
      case 'system':
        items.push({ type: 'message', role: 'system', content: message.content });
        break;
      case 'user':
        items.push({
          type: 'message',
          role: 'user',
          content: inputContent(
            message.content,
            message.parts,
          ) as OpenAI.Responses.ResponseInputMessageContentList,
        });
        break;
      case 'assistant':
        assistantItems(message, items);
        break;
      case 'tool':
        items.push(toolOutput(message));
        break;
    }
  }
  return items;
}

function toolChoice(choice: ToolChoice): OpenAI.Responses.ResponseCreateParams['tool_choice'] {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.name };
}

function hasEncryptedReasoning(request: ModelRequest): boolean {
  for (const message of request.messages) {
    if (message.role !== 'assistant' || !message.reasoning) continue;
    if (message.reasoning.some((part) => responsesReasoningData(part)?.encryptedContent)) return true;
  }
  return false;
}

/**
 * The request body (without `stream`). Nothing is stored server-side (`store: false`), so with
 * reasoning on, the encrypted reasoning is asked for and sent back on the next turn.
 */
export function buildResponsesBody(request: ModelRequest, options: ResponsesRequestOptions): ResponsesBody {
  const body: ResponsesBody = { model: options.model, input: responsesInput(request), store: false };
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function' as const,
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
      strict: false,
    }));
    if (request.toolChoice !== undefined) body.tool_choice = toolChoice(request.toolChoice);
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  const effort = effortOf(request.reasoning);
  if (effort !== undefined) {
    body.reasoning =
      options.reasoningSummary === 'none' ? { effort } : { effort, summary: options.reasoningSummary };
  }
  if (effort !== undefined || hasEncryptedReasoning(request)) body.include = ['reasoning.encrypted_content'];
  if (options.extraBody) Object.assign(body, options.extraBody);
  return body;
}
