import {
  type AssistantMessage,
  type ContentPart,
  type ModelRequest,
  type ReasoningPart,
  TOOL_SEARCH_TOOL,
  type ToolChoice,
  type ToolResultMessage,
} from '@agent/protocol';
import type OpenAI from 'openai';
import { argumentsForHistory, imageDataUrl } from '../content-parts.js';
import type { RequestRules } from '../model-traits.js';
import {
  allowedSampling,
  applyExtraBody,
  type BuiltBody,
  openAIEffort,
  samplingExtras,
} from '../request-shaping.js';
import { ToolIdMapper } from '../tool-call-ids.js';
import { responsesTools, searchCallItem, searchOutputItem, usesNativeSearch } from './tool-search.js';

type InputItem = OpenAI.Responses.ResponseInputItem;
type InputContent = OpenAI.Responses.ResponseInputContent;
/** The body as sent, `stream` included. */
export type ResponsesBody = Omit<OpenAI.Responses.ResponseCreateParamsNonStreaming, 'stream'> & {
  stream: boolean;
};

export interface ResponsesRequestOptions {
  model: string;
  reasoningSummary: 'auto' | 'concise' | 'detailed' | 'none';
  rules: RequestRules;
  extraBody?: Record<string, unknown>;
}

/** What a Responses reasoning item leaves in `ReasoningPart.providerData`. */
export interface ResponsesReasoningData {
  api: 'openai-responses';
  itemId: string;
  encryptedContent?: string;
  /**
   * The output item it came after: `start`, `message` or `function_call:<call_id>`. It goes
   * back in that place, so the items keep the order the API returned them in. Absent in data
   * from older versions (it then goes first).
   */
  after?: string;
}

/** `ResponsesReasoningData.after` for a function call. */
export const followsCall = (callId: string): string => `function_call:${callId}`;

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
 * An assistant turn as input items, in the order the API returned them: the text, then the
 * calls, each reasoning item back in its place (only those with encrypted content can be
 * replayed when nothing is stored server-side). The API rejects a reasoning item that no output
 * item follows, so trailing reasoning (an incomplete response) is left out.
 */
function assistantItems(
  message: AssistantMessage,
  out: InputItem[],
  ids: ToolIdMapper,
  searches: Set<string> | undefined,
): void {
  const after = new Map<string, InputItem[]>();
  for (const part of message.reasoning ?? []) {
    const data = responsesReasoningData(part);
    if (!data?.encryptedContent) continue;
    const place = data.after ?? 'start';
    const item: InputItem = {
      type: 'reasoning',
      id: data.itemId,
      encrypted_content: data.encryptedContent,
      summary: part.text === '' ? [] : [{ type: 'summary_text', text: part.text }],
    };
    after.set(place, [...(after.get(place) ?? []), item]);
  }
  const items: InputItem[] = [...(after.get('start') ?? [])];
  let lastOutput = -1;
  if (message.content !== '') {
    lastOutput = items.push({ type: 'message', role: 'assistant', content: message.content }) - 1;
    items.push(...(after.get('message') ?? []));
  }
  for (const call of message.toolCalls ?? []) {
    const search = searches !== undefined && call.name === TOOL_SEARCH_TOOL;
    if (search) searches.add(call.id);
    lastOutput =
      items.push(
        search
          ? searchCallItem(call, ids)
          : {
              type: 'function_call',
              call_id: ids.call(call.id),
              name: call.name,
              arguments: argumentsForHistory(call),
            },
      ) - 1;
    items.push(...(after.get(followsCall(call.id)) ?? []));
  }
  // Reasoning after the last message or call has no following item.
  out.push(...items.slice(0, lastOutput + 1));
}

function toolOutput(message: ToolResultMessage, ids: ToolIdMapper): InputItem {
  const output = inputContent(message.content, message.parts);
  return {
    type: 'function_call_output',
    call_id: ids.result(message.toolCallId),
    output:
      typeof output === 'string' ? output : (output as OpenAI.Responses.ResponseFunctionCallOutputItemList),
  };
}

export function responsesInput(request: ModelRequest, rules: RequestRules): InputItem[] {
  const ids = new ToolIdMapper(rules.toolIdFormat);
  const items: InputItem[] = [];
  // The ids of the `tool_search` calls that went as the API's own items (native search only).
  const searches = usesNativeSearch(request) ? new Set<string>() : undefined;
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
        assistantItems(message, items, ids, searches);
        break;
      case 'tool':
        items.push(
          searches?.has(message.toolCallId)
            ? searchOutputItem(message, ids, request.tools ?? [])
            : toolOutput(message, ids),
        );
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
 * The whole request body. Nothing is stored server-side (`store: false`), so a reasoning model
 * is always asked for its encrypted reasoning (with or without an effort), which goes back on
 * the next turn. Summaries only when configured: OpenAI refuses them to unverified organisations.
 */
export function buildResponsesBody(
  request: ModelRequest,
  options: ResponsesRequestOptions,
): BuiltBody<ResponsesBody> {
  const { rules } = options;
  const notices: string[] = [];
  const body: ResponsesBody = {
    model: options.model,
    input: responsesInput(request, rules),
    store: false,
    stream: request.stream !== false,
  };
  if (request.tools && request.tools.length > 0) {
    body.tools = responsesTools(request.tools, usesNativeSearch(request));
    if (request.toolChoice !== undefined) body.tool_choice = toolChoice(request.toolChoice);
  }
  const effort = openAIEffort(request, rules, notices);
  const sampling = allowedSampling(request, rules, effort, notices);
  if (sampling.temperature !== undefined) body.temperature = sampling.temperature;
  if (sampling.topP !== undefined) body.top_p = sampling.topP;
  samplingExtras(request, rules, notices); // the Responses API has neither: only the notice
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  const summary = options.reasoningSummary === 'none' ? undefined : options.reasoningSummary;
  if (effort !== undefined || (summary !== undefined && rules.reasoningModel)) {
    body.reasoning = {
      ...(effort === undefined
        ? {}
        : { effort: effort as NonNullable<ResponsesBody['reasoning']>['effort'] }),
      ...(summary === undefined ? {} : { summary }),
    };
  }
  if (rules.reasoningModel || effort !== undefined || hasEncryptedReasoning(request)) {
    body.include = ['reasoning.encrypted_content'];
  }
  return { body: applyExtraBody(body, options.extraBody), notices };
}
