import {
  type AssistantMessage,
  type ContentPart,
  type ConversationMessage,
  type ModelRequest,
  type ReasoningEffort,
  type ReasoningPart,
  TOOL_SEARCH_TOOL,
  type ToolCall,
  type ToolChoice,
  type ToolDefinition,
} from '@agent/protocol';
import { isRecord, parseToolArguments } from '@agent/protocol/util';
import type { WireApi } from './sse.js';

/** A request body turned back into protocol terms (best effort: unknown parts are skipped). */
export interface DecodedRequest {
  model: string;
  messages: ConversationMessage[];
  tools: ToolDefinition[];
  options: Omit<ModelRequest, 'messages' | 'tools'>;
  streaming: boolean;
  /** Chat Completions `stream_options.include_usage`. */
  includeUsage: boolean;
  /** Responses: the request has the client-executed `tool_search` tool (the model searches by its own item). */
  clientToolSearch?: true;
}

type Json = Record<string, unknown>;

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const asString = (value: unknown): string => (typeof value === 'string' ? value : '');
const asNumber = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** Text of a string or of an array of `{ type: *text, text }` parts; images become parts. */
function textAndParts(content: unknown): { text: string; parts: ContentPart[] } {
  if (typeof content === 'string') return { text: content, parts: [] };
  const texts: string[] = [];
  const parts: ContentPart[] = [];
  for (const part of asArray(content).filter(isRecord)) {
    if (typeof part.text === 'string') texts.push(part.text);
    const url = isRecord(part.image_url) ? asString(part.image_url.url) : asString(part.image_url);
    const source = isRecord(part.source) ? part.source : undefined;
    const match = /^data:([^;]+);base64,(.*)$/s.exec(url);
    if (match !== null) parts.push({ type: 'image', mimeType: match[1] ?? '', data: match[2] ?? '' });
    else if (source?.type === 'base64') {
      parts.push({ type: 'image', mimeType: asString(source.media_type), data: asString(source.data) });
    }
  }
  return { text: texts.join(''), parts };
}

function userMessage(content: unknown): ConversationMessage {
  const { text, parts } = textAndParts(content);
  return parts.length > 0 ? { role: 'user', content: text, parts } : { role: 'user', content: text };
}

function toolCall(id: unknown, name: unknown, raw: unknown) {
  const base = { id: asString(id), name: asString(name) };
  if (isRecord(raw)) return { ...base, arguments: raw };
  const text = asString(raw);
  return { ...base, ...parseToolArguments(text), rawArguments: text };
}

function effort(value: unknown): ModelRequest['reasoning'] {
  return typeof value === 'string' ? { effort: value as ReasoningEffort } : undefined;
}

function commonOptions(
  body: Json,
  maxTokens: unknown,
  choice: ToolChoice | undefined,
  reasoning: ModelRequest['reasoning'],
) {
  const options: Omit<ModelRequest, 'messages' | 'tools'> = { stream: body.stream === true };
  const temperature = asNumber(body.temperature);
  const topP = asNumber(body.top_p);
  const topK = asNumber(body.top_k);
  // vLLM, SGLang, OpenRouter: repetition_penalty; llama.cpp's server, LM Studio: repeat_penalty.
  const repeatPenalty = asNumber(body.repetition_penalty) ?? asNumber(body.repeat_penalty);
  const max = asNumber(maxTokens);
  if (temperature !== undefined) options.temperature = temperature;
  if (topP !== undefined) options.topP = topP;
  if (topK !== undefined) options.topK = topK;
  if (repeatPenalty !== undefined) options.repeatPenalty = repeatPenalty;
  if (max !== undefined) options.maxOutputTokens = max;
  if (choice !== undefined) options.toolChoice = choice;
  if (reasoning !== undefined) options.reasoning = reasoning;
  return options;
}

function openAIChoice(value: unknown): ToolChoice | undefined {
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (!isRecord(value)) return undefined;
  const name = isRecord(value.function) ? value.function.name : value.name;
  return typeof name === 'string' ? { name } : undefined;
}

/** Tool names by call id, so tool results can say which tool they answer. */
function nameOf(messages: ConversationMessage[], callId: string): string {
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    const call = message.toolCalls?.find((candidate) => candidate.id === callId);
    if (call !== undefined) return call.name;
  }
  return '';
}

function decodeChat(body: Json): DecodedRequest {
  const messages: ConversationMessage[] = [];
  for (const message of asArray(body.messages).filter(isRecord)) {
    const role = message.role;
    if (role === 'system' || role === 'developer') {
      messages.push({ role: 'system', content: textAndParts(message.content).text });
    } else if (role === 'user') messages.push(userMessage(message.content));
    else if (role === 'tool') {
      const toolCallId = asString(message.tool_call_id);
      const content = textAndParts(message.content).text;
      messages.push({ role: 'tool', toolCallId, toolName: nameOf(messages, toolCallId), content });
    } else if (role === 'assistant') {
      const assistant: AssistantMessage = { role: 'assistant', content: textAndParts(message.content).text };
      const calls = asArray(message.tool_calls).filter(isRecord);
      if (calls.length > 0) {
        assistant.toolCalls = calls.map((call) => {
          const fn = isRecord(call.function) ? call.function : {};
          return toolCall(call.id, fn.name, fn.arguments);
        });
      }
      const reasoning = asString(message.reasoning_content) || asString(message.reasoning);
      if (reasoning !== '') assistant.reasoning = [{ text: reasoning }];
      messages.push(assistant);
    }
  }
  const tools = asArray(body.tools)
    .filter(isRecord)
    .map((tool) => (isRecord(tool.function) ? tool.function : tool))
    .map((fn) => ({
      name: asString(fn.name),
      description: asString(fn.description),
      inputSchema: isRecord(fn.parameters) ? fn.parameters : {},
    }));
  const streamOptions = isRecord(body.stream_options) ? body.stream_options : {};
  return {
    model: asString(body.model),
    messages,
    tools,
    options: commonOptions(
      body,
      body.max_completion_tokens ?? body.max_tokens,
      openAIChoice(body.tool_choice),
      effort(body.reasoning_effort),
    ),
    streaming: body.stream === true,
    includeUsage: streamOptions.include_usage === true,
  };
}

const isClientSearch = (tool: Json): boolean => tool.type === 'tool_search' && tool.execution === 'client';
const clientSearch = (tools: unknown): boolean => asArray(tools).filter(isRecord).some(isClientSearch);

/** Responses tools: functions (deferred ones marked) and the client-executed search as `tool_search`. */
function responsesTools(value: unknown): ToolDefinition[] {
  return asArray(value)
    .filter(isRecord)
    .filter((tool) => tool.type === 'function' || isClientSearch(tool))
    .map((tool) => ({
      name: tool.type === 'function' ? asString(tool.name) : TOOL_SEARCH_TOOL,
      description: asString(tool.description),
      inputSchema: isRecord(tool.parameters) ? tool.parameters : {},
      ...(tool.defer_loading === true ? { deferLoading: true } : {}),
    }));
}

/** A `tool_search_output` item: the search's result, referencing the tools it loads. */
function searchOutputMessage(item: Json): ConversationMessage {
  const names = asArray(item.tools)
    .filter(isRecord)
    .map((tool) => asString(tool.name));
  return {
    role: 'tool',
    toolCallId: asString(item.call_id),
    toolName: TOOL_SEARCH_TOOL,
    content: '',
    ...(names.length > 0 ? { toolReferences: names } : {}),
  };
}

function decodeResponses(body: Json): DecodedRequest {
  const messages: ConversationMessage[] = [];
  if (typeof body.instructions === 'string') messages.push({ role: 'system', content: body.instructions });
  let pendingReasoning: ReasoningPart[] = [];
  const assistant = (): AssistantMessage => {
    const last = messages.at(-1);
    if (last?.role === 'assistant' && pendingReasoning.length === 0) return last;
    const created: AssistantMessage = { role: 'assistant', content: '' };
    if (pendingReasoning.length > 0) created.reasoning = pendingReasoning;
    pendingReasoning = [];
    messages.push(created);
    return created;
  };
  const input =
    typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : asArray(body.input);
  for (const item of input.filter(isRecord)) {
    const type = item.type ?? 'message';
    if (type === 'message') {
      if (item.role === 'system' || item.role === 'developer') {
        messages.push({ role: 'system', content: textAndParts(item.content).text });
      } else if (item.role === 'assistant') assistant().content += textAndParts(item.content).text;
      else messages.push(userMessage(item.content));
    } else if (type === 'reasoning') {
      const text = asArray(item.summary)
        .filter(isRecord)
        .map((part) => asString(part.text))
        .join('');
      const providerData: Json = { id: item.id };
      if (typeof item.encrypted_content === 'string') providerData.encrypted_content = item.encrypted_content;
      pendingReasoning.push({ text, providerData });
    } else if (type === 'function_call') {
      const target = assistant();
      target.toolCalls = [...(target.toolCalls ?? []), toolCall(item.call_id, item.name, item.arguments)];
    } else if (type === 'function_call_output') {
      const toolCallId = asString(item.call_id);
      const content = textAndParts(item.output).text;
      messages.push({ role: 'tool', toolCallId, toolName: nameOf(messages, toolCallId), content });
    } else if (type === 'tool_search_call') {
      const target = assistant();
      const call = toolCall(item.call_id, TOOL_SEARCH_TOOL, item.arguments);
      target.toolCalls = [...(target.toolCalls ?? []), call];
    } else if (type === 'tool_search_output') messages.push(searchOutputMessage(item));
  }
  const tools = responsesTools(body.tools);
  const reasoning = isRecord(body.reasoning) ? effort(body.reasoning.effort) : undefined;
  return {
    model: asString(body.model),
    messages,
    tools,
    options: commonOptions(body, body.max_output_tokens, openAIChoice(body.tool_choice), reasoning),
    streaming: body.stream === true,
    includeUsage: false,
    ...(clientSearch(body.tools) ? { clientToolSearch: true as const } : {}),
  };
}

function anthropicChoice(value: unknown): ToolChoice | undefined {
  if (!isRecord(value)) return undefined;
  if (value.type === 'auto' || value.type === 'none') return value.type;
  if (value.type === 'any') return 'required';
  return value.type === 'tool' && typeof value.name === 'string' ? { name: value.name } : undefined;
}

function decodeAnthropicMessage(message: Json, messages: ConversationMessage[]): void {
  if (typeof message.content === 'string') {
    messages.push(
      message.role === 'assistant'
        ? { role: 'assistant', content: message.content }
        : userMessage(message.content),
    );
    return;
  }
  const blocks = asArray(message.content).filter(isRecord);
  if (message.role === 'assistant') {
    const assistant: AssistantMessage = { role: 'assistant', content: '' };
    const reasoning: ReasoningPart[] = [];
    const calls: ToolCall[] = [];
    for (const block of blocks) {
      if (block.type === 'text') assistant.content += asString(block.text);
      else if (block.type === 'thinking') {
        reasoning.push({ text: asString(block.thinking), signature: asString(block.signature) });
      } else if (block.type === 'redacted_thinking') {
        reasoning.push({ text: '', redactedData: asString(block.data) });
      } else if (block.type === 'tool_use') calls.push(toolCall(block.id, block.name, block.input));
    }
    if (reasoning.length > 0) assistant.reasoning = reasoning;
    if (calls.length > 0) assistant.toolCalls = calls;
    messages.push(assistant);
    return;
  }
  for (const block of blocks.filter((candidate) => candidate.type === 'tool_result')) {
    const toolCallId = asString(block.tool_use_id);
    const { text, parts } = textAndParts(block.content);
    const references = asArray(block.content)
      .filter(isRecord)
      .filter((part) => part.type === 'tool_reference')
      .map((part) => asString(part.tool_name));
    messages.push({
      role: 'tool',
      toolCallId,
      toolName: nameOf(messages, toolCallId),
      content: text,
      ...(parts.length > 0 ? { parts } : {}),
      ...(block.is_error === true ? { isError: true } : {}),
      ...(references.length > 0 ? { toolReferences: references } : {}),
    });
  }
  const rest = blocks.filter((candidate) => candidate.type !== 'tool_result');
  if (rest.length > 0) messages.push(userMessage(rest));
}

function decodeAnthropic(body: Json): DecodedRequest {
  const messages: ConversationMessage[] = [];
  const system = textAndParts(body.system).text;
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const message of asArray(body.messages).filter(isRecord)) decodeAnthropicMessage(message, messages);
  const tools = asArray(body.tools)
    .filter(isRecord)
    .map((tool) => ({
      name: asString(tool.name),
      description: asString(tool.description),
      inputSchema: isRecord(tool.input_schema) ? tool.input_schema : {},
      ...(tool.defer_loading === true ? { deferLoading: true } : {}),
    }));
  const thinking = isRecord(body.thinking) ? asNumber(body.thinking.budget_tokens) : undefined;
  return {
    model: asString(body.model),
    messages,
    tools,
    options: commonOptions(
      body,
      body.max_tokens,
      anthropicChoice(body.tool_choice),
      thinking === undefined ? undefined : { budgetTokens: thinking },
    ),
    streaming: body.stream === true,
    includeUsage: false,
  };
}

/** Decodes a request body of the given API into protocol messages, tools and options. */
export function decodeRequest(api: WireApi, body: unknown): DecodedRequest {
  const json = isRecord(body) ? body : {};
  if (api === 'openai-chat') return decodeChat(json);
  if (api === 'openai-responses') return decodeResponses(json);
  return decodeAnthropic(json);
}
