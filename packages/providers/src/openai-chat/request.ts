import type {
  AssistantMessage,
  ModelRequest,
  ToolChoice,
  ToolDefinition,
  ToolResultMessage,
  UserMessage,
} from '@agent/protocol';
import type OpenAI from 'openai';
import { argumentsForHistory, imageDataUrl, imagePartsOf } from '../content-parts.js';
import type { RequestRules } from '../model-traits.js';
import {
  allowedSampling,
  applyExtraBody,
  type BuiltBody,
  openAIEffort,
  samplingExtras,
} from '../request-shaping.js';
import { ToolIdMapper } from '../tool-call-ids.js';
import { type ChatConversionCache, type ChatProgress, rewind, sharedPrefix } from './conversion-cache.js';
import { chatReasoningDetails } from './reasoning-details.js';

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
type ContentPart = OpenAI.Chat.ChatCompletionContentPart;
type ChatTool = OpenAI.Chat.ChatCompletionTool;
/** The body as sent, `stream` and `stream_options` included. */
export type ChatBody = Omit<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, 'stream'> & {
  stream: boolean;
  stream_options?: { include_usage: boolean };
  /** OpenAI-compatible servers only (vLLM, llama.cpp, LM Studio, OpenRouter, ...). */
  top_k?: number;
  repetition_penalty?: number;
  repeat_penalty?: number;
};

export interface ChatRequestOptions {
  model: string;
  /** The configured provider key: OpenRouter's reasoning details go back only to their own provider. */
  provider: string;
  rules: RequestRules;
  extraBody?: Record<string, unknown>;
  /** The client's conversions from earlier requests; without it every message is converted anew. */
  cache?: ChatConversionCache;
}

/** What stands between tool results and a user message for servers that refuse user after tool. */
export const TOOL_RESULTS_BRIDGE = 'Noted the tool results.';

interface HistoryContext {
  ids: ToolIdMapper;
  options: ChatRequestOptions;
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

/**
 * An assistant turn. Its reasoning goes back under the configured field; thinking models
 * (DeepSeek) require the field on every tool-call turn, so it is sent even when empty (a turn
 * another model made). OpenRouter's `reasoning_details` go back unchanged to the provider that
 * sent them (Gemini needs its thought signatures on the next tool turn).
 */
function assistantMessage(
  message: AssistantMessage,
  ids: readonly string[],
  history: HistoryContext,
): ChatMessage {
  const calls = message.toolCalls ?? [];
  const out: OpenAI.Chat.ChatCompletionAssistantMessageParam = {
    role: 'assistant',
    content: message.content === '' && calls.length > 0 ? null : message.content,
  };
  if (calls.length > 0) {
    out.tool_calls = calls.map((call, index) => ({
      id: ids[index]!,
      type: 'function' as const,
      function: { name: call.name, arguments: argumentsForHistory(call) },
    }));
  }
  const extra = out as unknown as Record<string, unknown>;
  const details = chatReasoningDetails(message.reasoning, history.options.provider);
  if (details !== undefined) extra.reasoning_details = details;
  const field = history.options.rules.chatReasoningField;
  if (field !== undefined && details === undefined) {
    const text = (message.reasoning ?? []).map((part) => part.text).join('');
    if (text !== '' || calls.length > 0) extra[field] = text;
  }
  return out;
}

/**
 * Chat Completions tool messages carry text only, so images a tool returned go in one user
 * message right after the run of tool messages, labelled with the call they belong to.
 */
function toolImagesMessage(
  results: readonly ToolResultMessage[],
  ids: ToolIdMapper,
): ChatMessage | undefined {
  const parts: ContentPart[] = [];
  for (const result of results) {
    const images = imagePartsOf(result.parts);
    if (images.length === 0) continue;
    parts.push({
      type: 'text',
      text: `Images returned by tool ${result.toolName} (call ${ids.result(result.toolCallId)}):`,
    });
    for (const image of images) parts.push({ type: 'image_url', image_url: { url: imageDataUrl(image) } });
  }
  return parts.length > 0 ? { role: 'user', content: parts } : undefined;
}

function newProgress(options: ChatRequestOptions): ChatProgress {
  return {
    sources: [],
    contents: [],
    out: [],
    outAfter: [],
    marks: [],
    ids: new ToolIdMapper(options.rules.toolIdFormat),
  };
}

/**
 * Where this request's conversion starts: a conversation already converted (the messages it
 * starts with, unchanged) continues from there, its ephemeral tail (the last notice) taken back.
 */
function progressFor(request: ModelRequest, options: ChatRequestOptions): ChatProgress {
  const { cache } = options;
  const first = request.messages[0];
  if (cache === undefined || first === undefined) return newProgress(options);
  const kept = cache.progressOf(first);
  if (kept === undefined) {
    const progress = newProgress(options);
    cache.keepProgress(first, progress);
    return progress;
  }
  rewind(kept, sharedPrefix(kept, request.messages));
  return kept;
}

export function chatMessages(request: ModelRequest, options: ChatRequestOptions): ChatMessage[] {
  const progress = progressFor(request, options);
  const { out, ids } = progress;
  const history: HistoryContext = { ids, options };
  const { rules } = options;
  const pushUser = (message: ChatMessage): void => pushUserMessage(out, message, rules);
  // Tool results at the end of what was converted: their images go after the run.
  let runStart = progress.sources.length;
  while (runStart > 0 && progress.sources[runStart - 1]!.role === 'tool') runStart--;
  let toolRun = progress.sources.slice(runStart) as ToolResultMessage[];
  const flushToolImages = (): void => {
    if (toolRun.length === 0) return;
    const images = toolImagesMessage(toolRun, ids);
    if (images) pushUser(images);
    toolRun = [];
  };
  for (let index = progress.sources.length; index < request.messages.length; index++) {
    const message = request.messages[index]!;
    if (message.role !== 'tool') flushToolImages();
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: message.content });
        break;
      case 'user':
        pushUser({ role: 'user', content: userContent(message) });
        break;
      case 'assistant': {
        const callIds = (message.toolCalls ?? []).map((call) => ids.call(call.id));
        out.push(assistantMessage(message, callIds, history));
        break;
      }
      case 'tool': {
        const id = ids.result(message.toolCallId);
        out.push({ role: 'tool', tool_call_id: id, content: message.content });
        toolRun.push(message);
        break;
      }
    }
    progress.sources.push(message);
    progress.contents.push(message.content);
    progress.outAfter.push(out.length);
    progress.marks.push(ids.mark);
  }
  const messages = out.slice();
  // The images of trailing tool results go in this request only: the next one may add results to the run.
  const images = toolRun.length > 0 ? toolImagesMessage(toolRun, ids) : undefined;
  if (images) pushUserMessage(messages, images, rules);
  return messages;
}

/** A user message; servers that refuse user after tool get an assistant bridge first. */
function pushUserMessage(list: ChatMessage[], message: ChatMessage, rules: RequestRules): void {
  if (rules.assistantAfterToolResults && list.at(-1)?.role === 'tool') {
    list.push({ role: 'assistant', content: TOOL_RESULTS_BRIDGE });
  }
  list.push(message);
}

function toolChoice(choice: ToolChoice): OpenAI.Chat.ChatCompletionToolChoiceOption {
  if (typeof choice === 'string') return choice;
  return { type: 'function', function: { name: choice.name } };
}

/**
 * The whole request body, built once per call; `extraBody` goes on last and wins over
 * anything set here (`stream_options` included).
 */
export function buildChatBody(request: ModelRequest, options: ChatRequestOptions): BuiltBody<ChatBody> {
  const { rules } = options;
  const notices: string[] = [];
  const streaming = request.stream !== false;
  const body: ChatBody = {
    model: options.model,
    messages: chatMessages(request, options),
    stream: streaming,
  };
  if (streaming && rules.streamUsage) body.stream_options = { include_usage: true };
  if (request.tools && request.tools.length > 0) {
    body.tools = chatTools(request.tools, options.cache);
    if (request.toolChoice !== undefined) body.tool_choice = toolChoice(request.toolChoice);
  }
  const effort = openAIEffort(request, rules, notices);
  const sampling = allowedSampling(request, rules, effort, notices);
  if (sampling.temperature !== undefined) body.temperature = sampling.temperature;
  if (sampling.topP !== undefined) body.top_p = sampling.topP;
  // Not in OpenAI's API: the extra fields OpenAI-compatible servers read (only they get them).
  const extras = samplingExtras(request, rules, notices);
  if (extras.topK !== undefined) body.top_k = extras.topK;
  if (extras.repeatPenalty !== undefined) body[extras.repeatPenalty.field] = extras.repeatPenalty.value;
  if (request.maxOutputTokens !== undefined) body[rules.maxTokensField] = request.maxOutputTokens;
  if (effort !== undefined) body.reasoning_effort = effort as ChatBody['reasoning_effort'];
  return { body: applyExtraBody(body, options.extraBody), notices };
}

function chatTools(tools: readonly ToolDefinition[], cache: ChatConversionCache | undefined): ChatTool[] {
  return cache === undefined ? tools.map(chatTool) : cache.tools(tools, chatTool);
}

function chatTool(tool: ToolDefinition): ChatTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  };
}
