import { createRequire } from 'node:module';
import type { ConversationMessage, ToolDefinition } from '@agent/protocol';

type CountTokens = (text: string) => number;

/** Texts above this size are estimated by the heuristic even for OpenAI models: exact counts cost too much CPU. */
const EXACT_COUNT_MAX_CHARS = 262_144;
/** Framing tokens per message (role, separators), as OpenAI documents for chat models. */
const PER_MESSAGE_OVERHEAD = 4;

let openAiCounter: CountTokens | undefined;

/**
 * Tool definitions are usually the same objects for every session of a process (internal tools,
 * an MCP server's listing): their counts are kept across sessions, per counting method.
 */
const exactDefinitionTokens = new WeakMap<ToolDefinition, number>();
const heuristicDefinitionTokens = new WeakMap<ToolDefinition, number>();

/** Loaded on first use: the BPE tables cost ~200 ms and several MB, paid only by sessions that need them. */
function loadOpenAiCounter(): CountTokens {
  if (openAiCounter === undefined) {
    const require = createRequire(import.meta.url);
    const module = require('gpt-tokenizer/cjs/encoding/o200k_base') as { countTokens: CountTokens };
    openAiCounter = module.countTokens;
  }
  return openAiCounter;
}

/** Heuristic for models without a known tokenizer: about 4 characters a token for prose and code. */
export function heuristicTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function isOpenAiFamily(model: string, hint?: string): boolean {
  if (hint !== undefined) return hint === 'openai';
  return /^(gpt-|o\d|chatgpt|text-)/i.test(model);
}

/**
 * Estimates tokens of messages and texts. Each message is counted once (cached by identity)
 * and the estimate is scaled by how far off it was from what the provider reported.
 */
export class TokenEstimator {
  private readonly cache = new WeakMap<object, number>();
  private readonly count: CountTokens;
  /** Reported input tokens / estimated, smoothed; starts at 1. */
  private correction = 1;

  constructor(private readonly exact: boolean) {
    this.count = exact ? exactOrHeuristic : heuristicTokens;
  }

  text(text: string): number {
    return Math.ceil(this.count(text) * this.correction);
  }

  /** Raw (uncorrected) tokens of a message, cached. */
  private rawMessage(message: ConversationMessage): number {
    const cached = this.cache.get(message);
    if (cached !== undefined) return cached;
    let tokens = PER_MESSAGE_OVERHEAD + this.count(message.content);
    if (message.role === 'assistant') {
      for (const part of message.reasoning ?? []) tokens += this.count(part.text);
      for (const call of message.toolCalls ?? []) {
        tokens += this.count(call.name) + this.count(call.rawArguments ?? JSON.stringify(call.arguments));
      }
    }
    this.cache.set(message, tokens);
    return tokens;
  }

  message(message: ConversationMessage): number {
    return Math.ceil(this.rawMessage(message) * this.correction);
  }

  /** Raw tokens of a list of messages (uncorrected; callers add and correct once). */
  rawMessages(messages: readonly ConversationMessage[]): number {
    let total = 0;
    for (const message of messages) total += this.rawMessage(message);
    return total;
  }

  /** Tokens of tool definitions (corrected); definitions are counted once per process. */
  tools(definitions: readonly ToolDefinition[]): number {
    return Math.ceil(this.rawTools(definitions) * this.correction);
  }

  rawTools(definitions: readonly ToolDefinition[]): number {
    const cache = this.exact ? exactDefinitionTokens : heuristicDefinitionTokens;
    let total = 0;
    for (const definition of definitions) {
      let tokens = cache.get(definition);
      if (tokens === undefined) {
        tokens = this.count(
          definition.name + definition.description + JSON.stringify(definition.inputSchema),
        );
        cache.set(definition, tokens);
      }
      total += tokens;
    }
    return total;
  }

  corrected(rawTokens: number): number {
    return Math.ceil(rawTokens * this.correction);
  }

  /** Learns from the provider: `reported` input tokens for a request we estimated at `rawEstimate`. */
  observe(reported: number, rawEstimate: number): void {
    if (reported <= 0 || rawEstimate <= 0) return;
    const ratio = Math.min(4, Math.max(0.25, reported / rawEstimate));
    this.correction = this.correction === 1 ? ratio : this.correction * 0.5 + ratio * 0.5;
  }

  get correctionFactor(): number {
    return this.correction;
  }
}

function exactOrHeuristic(text: string): number {
  if (text.length === 0) return 0;
  if (text.length > EXACT_COUNT_MAX_CHARS) return heuristicTokens(text);
  return loadOpenAiCounter()(text);
}
