import type {
  AssistantMessage,
  ContentPart,
  ConversationMessage,
  ModelRequest,
  ToolChoice,
  ToolResultMessage,
} from '@agent/protocol';
import type Anthropic from '@anthropic-ai/sdk';
import type { RequestRules, ToolIdFormat } from '../model-traits.js';
import { budgetOf } from '../reasoning-budget.js';
import { applyExtraBody, type BuiltBody, samplingExtras } from '../request-shaping.js';
import { ToolIdMapper } from '../tool-call-ids.js';

type Block = Anthropic.ContentBlockParam;
type Message = { role: 'user' | 'assistant'; content: Block[] };
/** The SDK's types no longer list the sampling fields; the API still takes them for the models that do. */
export type AnthropicBody = Omit<Anthropic.MessageCreateParamsNonStreaming, 'stream'> & {
  stream: boolean;
  temperature?: number;
  top_p?: number;
  top_k?: number;
};

/** `max_tokens` when the request gives none (Anthropic requires it). */
export const DEFAULT_MAX_TOKENS = 4096;
/** The smallest thinking budget Anthropic accepts. */
export const MIN_THINKING_BUDGET = 1024;

export interface AnthropicRequestOptions {
  model: string;
  promptCaching: boolean;
  rules: RequestRules;
  extraBody?: Record<string, unknown>;
}

const EPHEMERAL = { type: 'ephemeral' } as const;

function imageBlock(part: { mimeType: string; data: string }): Anthropic.ImageBlockParam {
  const mediaType = part.mimeType as Anthropic.Base64ImageSource['media_type'];
  return { type: 'image', source: { type: 'base64', media_type: mediaType, data: part.data } };
}

function partsBlocks(
  text: string,
  parts: readonly ContentPart[] | undefined,
): (Anthropic.TextBlockParam | Anthropic.ImageBlockParam)[] {
  const blocks: (Anthropic.TextBlockParam | Anthropic.ImageBlockParam)[] = [];
  if (text !== '') blocks.push({ type: 'text', text });
  for (const part of parts ?? []) {
    if (part.type === 'text') {
      if (part.text !== '') blocks.push({ type: 'text', text: part.text });
    } else {
      blocks.push(imageBlock(part));
    }
  }
  return blocks;
}

/**
 * An assistant turn: its signed thinking blocks first, exactly as received (the API verifies
 * them), then its text and tool calls. Reasoning without a signature (another provider's) is
 * not sent: Anthropic rejects unsigned thinking.
 */
function assistantBlocks(message: AssistantMessage, ids: ToolIdMapper): Block[] {
  const blocks: Block[] = [];
  for (const part of message.reasoning ?? []) {
    if (part.redactedData !== undefined) blocks.push({ type: 'redacted_thinking', data: part.redactedData });
    else if (part.signature)
      blocks.push({ type: 'thinking', thinking: part.text, signature: part.signature });
  }
  if (message.content !== '') blocks.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls ?? []) {
    blocks.push({ type: 'tool_use', id: ids.call(call.id), name: call.name, input: call.arguments });
  }
  return blocks;
}

function toolResultBlock(message: ToolResultMessage, ids: ToolIdMapper): Anthropic.ToolResultBlockParam {
  const block: Anthropic.ToolResultBlockParam = {
    type: 'tool_result',
    tool_use_id: ids.result(message.toolCallId),
  };
  const content = message.parts?.length ? partsBlocks(message.content, message.parts) : message.content;
  const references = message.toolReferences ?? [];
  if (references.length > 0) {
    // A search result that loads deferred tools: only their references, as the API's custom tool
    // search takes them (it expands each into the tool's definition, so the text adds nothing).
    block.content = references.map((name) => ({ type: 'tool_reference', tool_name: name }));
  } else if (content.length > 0) block.content = content;
  if (message.isError) block.is_error = true;
  return block;
}

/**
 * The message whose end is the cache breakpoint for the history: the last assistant or tool
 * message, before the trailing user messages (the newest turn's input: a prompt, a per-turn
 * notice). That end is where the next call's history still matches this one byte for byte, so
 * the next call reads all of it from the cache (the API looks back up to 20 blocks from a mark
 * for an earlier write) and writes one turn more. -1 when there is none.
 */
export function historyBreakpoint(messages: readonly ConversationMessage[]): number {
  let i = messages.length - 1;
  while (i >= 0 && messages[i]?.role === 'user') i--;
  const role = messages[i]?.role;
  return role === 'assistant' || role === 'tool' ? i : -1;
}

function markLast(blocks: Block[]): void {
  const last = blocks[blocks.length - 1];
  if (last && last.type !== 'thinking' && last.type !== 'redacted_thinking') {
    (last as { cache_control?: Anthropic.CacheControlEphemeral }).cache_control = EPHEMERAL;
  }
}

/** Anthropic takes at most this many `cache_control` breakpoints in one request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/**
 * The messages whose last block carries a breakpoint: the history breakpoint, and the messages
 * flagged `cacheBreakpoint` (a compaction's summary, so the prefix up to it stays cached) within
 * the breakpoints left after the system prompt, the tools and the history, the newest first.
 */
export function messageBreakpoints(
  messages: readonly ConversationMessage[],
  history: number,
  taken: number,
): Set<number> {
  const marked = new Set<number>(history >= 0 ? [history] : []);
  let left = MAX_CACHE_BREAKPOINTS - taken - marked.size;
  for (let i = messages.length - 1; i >= 0 && left > 0; i--) {
    const message = messages[i];
    if (message?.role !== 'user' || message.cacheBreakpoint !== true || marked.has(i)) continue;
    if (partsBlocks(message.content, message.parts).length === 0) continue;
    marked.add(i);
    left--;
  }
  return marked;
}

/**
 * Conversation to Anthropic messages: tool results become user blocks; same-role neighbours
 * merge; tool-call ids become ids Anthropic accepts (`[A-Za-z0-9_-]`, unique). The messages in
 * `breakpoints` get a cache mark on their last block.
 */
export function anthropicMessages(
  messages: readonly ConversationMessage[],
  breakpoints: ReadonlySet<number>,
  idFormat: ToolIdFormat = 'anthropic',
): Message[] {
  const ids = new ToolIdMapper(idFormat);
  const out: Message[] = [];
  const push = (role: 'user' | 'assistant', blocks: Block[]): void => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (!message || message.role === 'system') continue;
    let blocks: Block[];
    if (message.role === 'user') blocks = partsBlocks(message.content, message.parts);
    else if (message.role === 'assistant') blocks = assistantBlocks(message, ids);
    else blocks = [toolResultBlock(message, ids)];
    if (breakpoints.has(i)) markLast(blocks);
    push(message.role === 'assistant' ? 'assistant' : 'user', blocks);
  }
  return out;
}

/** The message breakpoints of a request with caching on, after the system prompt's and the last tool's. */
function cacheBreakpoints(request: ModelRequest, system: string): Set<number> {
  const taken = (system !== '' ? 1 : 0) + (request.tools !== undefined && request.tools.length > 0 ? 1 : 0);
  return messageBreakpoints(request.messages, historyBreakpoint(request.messages), taken);
}

function toolChoice(choice: ToolChoice): Anthropic.ToolChoice {
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any' };
  return { type: 'tool', name: choice.name };
}

function forcesTool(choice: ToolChoice | undefined): boolean {
  return choice === 'required' || (typeof choice === 'object' && choice !== null);
}

/**
 * With thinking on, Anthropic requires the last assistant message, when it called tools, to
 * start with a signed thinking block. A turn another model made (after a fallback) has none,
 * and no signature can be made up for it.
 */
function lastToolTurnIsUnsigned(messages: readonly Message[]): boolean {
  const last = messages.findLast((message) => message.role === 'assistant');
  if (last === undefined || !last.content.some((block) => block.type === 'tool_use')) return false;
  const first = last.content[0]?.type;
  return first !== 'thinking' && first !== 'redacted_thinking';
}

interface ThinkingPlan {
  maxTokens: number;
  budget?: number;
}

/**
 * `max_tokens` and the thinking budget: the budget is at least 1024 and `max_tokens` must exceed
 * it (budget + answer), and neither may pass the model's output limit.
 */
function planThinking(
  request: ModelRequest,
  thinking: boolean,
  limit: number | undefined,
  notices: string[],
): ThinkingPlan {
  const asked = request.maxOutputTokens;
  const answer = asked ?? DEFAULT_MAX_TOKENS;
  let maxTokens = answer;
  let budget = thinking ? Math.max(MIN_THINKING_BUDGET, budgetOf(request.reasoning) ?? 0) : undefined;
  if (budget !== undefined && maxTokens <= budget) maxTokens = budget + answer;
  if (limit !== undefined && maxTokens > limit) {
    notices.push(`max_tokens ${maxTokens} capped at ${limit}, the model's output limit`);
    maxTokens = limit;
    if (budget !== undefined && budget >= maxTokens) {
      budget = maxTokens - Math.min(answer, Math.floor(maxTokens / 2));
      notices.push(`thinking budget lowered to ${budget} to leave room for the answer`);
    }
  }
  if (budget !== undefined && (budget < MIN_THINKING_BUDGET || budget >= maxTokens)) {
    notices.push(
      `thinking is off for this call: max_tokens ${maxTokens} leaves no room for a budget of ${MIN_THINKING_BUDGET}`,
    );
    budget = undefined;
  }
  return budget === undefined ? { maxTokens } : { maxTokens, budget };
}

/**
 * The whole request body. Thinking: `budgetTokens` (or a budget derived from the effort; none
 * for effort `none`); it is left off when a tool is forced (the API rejects both together) and
 * when the last tool turn has no signed thinking (see `lastToolTurnIsUnsigned`), and
 * temperature/top-p/top-k are not sent with it. Claude 4.5+ reject temperature and top-p together,
 * so top-p goes only when no temperature is set. There is no repeat penalty (a notice says so).
 */
export function buildAnthropicBody(
  request: ModelRequest,
  options: AnthropicRequestOptions,
): BuiltBody<AnthropicBody> {
  const notices: string[] = [];
  const caching = options.promptCaching;
  const system = request.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const messages = anthropicMessages(
    request.messages,
    caching ? cacheBreakpoints(request, system) : new Set(),
    options.rules.toolIdFormat,
  );
  let thinking = budgetOf(request.reasoning) !== undefined && !forcesTool(request.toolChoice);
  if (thinking && lastToolTurnIsUnsigned(messages)) {
    thinking = false;
    notices.push(
      'thinking is off for this call: the last tool call was made without signed thinking (by another model), which Anthropic rejects while thinking is on',
    );
  }
  const plan = planThinking(request, thinking, options.rules.outputTokenLimit, notices);
  const body: AnthropicBody = {
    model: options.model,
    max_tokens: plan.maxTokens,
    messages,
    stream: request.stream !== false,
  };
  if (system !== '')
    body.system = [{ type: 'text', text: system, ...(caching ? { cache_control: EPHEMERAL } : {}) }];
  if (request.tools && request.tools.length > 0) {
    // The breakpoint goes on the last tool loaded up front: deferred tools are not in the prefix.
    const last = request.tools.findLastIndex((tool) => tool.deferLoading !== true);
    body.tools = request.tools.map((tool, index) => ({
      name: tool.name,
      description: tool.description,
      input_schema: { type: 'object', ...tool.inputSchema } as Anthropic.Tool.InputSchema,
      ...(tool.deferLoading === true ? { defer_loading: true } : {}),
      ...(caching && index === last ? { cache_control: EPHEMERAL } : {}),
    }));
    if (request.toolChoice !== undefined) body.tool_choice = toolChoice(request.toolChoice);
  }
  if (plan.budget !== undefined) {
    body.thinking = { type: 'enabled', budget_tokens: plan.budget };
  } else if (request.temperature !== undefined) {
    body.temperature = request.temperature;
  } else if (request.topP !== undefined) {
    body.top_p = request.topP;
  }
  const extras = samplingExtras(request, options.rules, notices);
  if (extras.topK !== undefined && plan.budget !== undefined) {
    notices.push('top_k not sent (Anthropic does not take it with thinking on)');
  } else if (extras.topK !== undefined) {
    body.top_k = extras.topK;
  }
  return { body: applyExtraBody(body, options.extraBody), notices };
}
