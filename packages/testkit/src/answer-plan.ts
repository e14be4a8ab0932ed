import type { ConversationMessage, StopReason, TokenUsage, ToolCall, ToolDefinition } from '@agent/protocol';
import { CHARS_PER_TOKEN, parseToolArguments } from '@agent/protocol/util';
import { fillNonce } from './nonce-placeholder.js';
import type { ScriptedAnswer } from './steps.js';
import { splitIntoWords } from './tool-arguments.js';

/** One reasoning block, ready to stream. */
export interface PlannedReasoning {
  deltas: string[];
  text: string;
  signature?: string;
}

/** One tool call, ready to send: the wire string and the protocol call the client should rebuild. */
export interface PlannedToolCall {
  id: string;
  name: string;
  /** The arguments as they go on the wire (a string argument verbatim, an object as JSON). */
  argumentsText: string;
  call: ToolCall;
}

/** A scripted answer resolved into exactly what every API renders. */
export interface AnswerPlan {
  textDeltas: string[];
  text: string;
  reasoning: PlannedReasoning[];
  toolCalls: PlannedToolCall[];
  usage: TokenUsage;
  stopReason: StopReason;
  rawStopReason?: string;
}

export interface PlanContext {
  /** The request's conversation, for the input-token estimate. */
  messages: readonly ConversationMessage[];
  tools?: readonly ToolDefinition[];
  /** Prefix of generated tool call ids (`call_`, `toolu_`). */
  toolIdPrefix: string;
  /** Makes the id of a call the script gives none (instead of the prefix), e.g. Mistral's 9 characters. */
  toolId?: (callNumber: number, index: number) => string;
  /** 1-based number of this call, to make generated ids unique. */
  callNumber: number;
  /** Whether the answer streams; a string text is split into words only when it streams slowly. */
  streaming: boolean;
}

function deltasOf(text: string | string[] | undefined, slow: boolean): string[] {
  if (text === undefined) return [];
  if (Array.isArray(text)) return text;
  if (text === '') return [];
  return slow ? splitIntoWords(text) : [text];
}

function tokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/**
 * Default usage: about one token per 4 characters, input from the request's messages and tools
 * as JSON, output from the answer's text, reasoning and tool arguments. Scripted fields win;
 * `totalTokens` defaults to input + output.
 */
export function estimateUsage(
  plan: Omit<AnswerPlan, 'usage' | 'stopReason'>,
  context: Pick<PlanContext, 'messages' | 'tools'>,
  scripted: Partial<TokenUsage> | undefined,
): TokenUsage {
  const reasoningChars = plan.reasoning.reduce((sum, block) => sum + block.text.length, 0);
  const toolChars = plan.toolCalls.reduce(
    (sum, call) => sum + call.name.length + call.argumentsText.length,
    0,
  );
  const inputTokens =
    scripted?.inputTokens ?? tokens(JSON.stringify([context.messages, context.tools ?? []]).length);
  const outputTokens = scripted?.outputTokens ?? tokens(plan.text.length + reasoningChars + toolChars);
  const usage: TokenUsage = { ...scripted, inputTokens, outputTokens, totalTokens: 0 };
  usage.totalTokens = scripted?.totalTokens ?? inputTokens + outputTokens;
  if (usage.reasoningTokens === undefined && reasoningChars > 0)
    usage.reasoningTokens = tokens(reasoningChars);
  return usage;
}

/** Resolves a scripted answer: deltas, reasoning blocks, tool calls with ids, usage, stop reason. */
export function planAnswer(answer: ScriptedAnswer, context: PlanContext): AnswerPlan {
  const slow = context.streaming && (answer.tokenDelayMs ?? 0) > 0;
  const textDeltas = fillNonce(deltasOf(answer.text, slow), context.messages);
  const blocks = answer.reasoning === undefined ? [] : [answer.reasoning].flat();
  const reasoning = blocks.map((block): PlannedReasoning => {
    const deltas = deltasOf(block.text, slow);
    return {
      deltas,
      text: deltas.join(''),
      ...(block.signature === undefined ? {} : { signature: block.signature }),
    };
  });
  const toolCalls = (answer.toolCalls ?? []).map((scripted, index): PlannedToolCall => {
    const id =
      scripted.id === null
        ? ''
        : (scripted.id ??
          context.toolId?.(context.callNumber, index) ??
          `${context.toolIdPrefix}${context.callNumber}_${index + 1}`);
    const isRaw = typeof scripted.arguments === 'string';
    const argumentsText = isRaw ? (scripted.arguments as string) : JSON.stringify(scripted.arguments);
    const call: ToolCall = isRaw
      ? { id, name: scripted.name, ...parseToolArguments(argumentsText), rawArguments: argumentsText }
      : { id, name: scripted.name, arguments: scripted.arguments as Record<string, unknown> };
    return { id, name: scripted.name, argumentsText, call };
  });
  const base = { textDeltas, text: textDeltas.join(''), reasoning, toolCalls };
  return {
    ...base,
    usage: estimateUsage(base, context, answer.usage),
    stopReason: answer.stopReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    ...(answer.rawStopReason === undefined ? {} : { rawStopReason: answer.rawStopReason }),
  };
}
