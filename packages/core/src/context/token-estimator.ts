import type { ConversationMessage, ModelClient, ToolDefinition } from '@agent/protocol';
import { heuristicTokens } from '@agent/protocol/util';
import { PerCounter, setBounded } from './per-counter.js';

type CountTokens = (text: string) => number;

/** Framing tokens per message (role, separators), as OpenAI documents for chat models. */
const PER_MESSAGE_OVERHEAD = 4;

/** Texts whose count a session keeps: a tool result is sized, admitted and then stored as a message. */
const RECENT_TEXTS = 16;
/** Texts up to this length are counted once per process: notice heads, tool names, small arguments recur. */
const SHORT_TEXT = 256;
/** Short texts kept per counting function (about 1 MB at most). */
const SHORT_TEXTS = 4096;

/** Counts of short texts, per counting function, for every session of the process. */
const shortTextTokens = new PerCounter(() => new Map<string, number>());

/**
 * Tool definitions are usually the same objects for every session of a process (internal tools,
 * an MCP server's listing): their counts are kept across sessions, per counting function (a
 * provider gives every client of one tokenizer the same `countTokens`).
 */
const definitionTokens = new PerCounter(() => new WeakMap<ToolDefinition, number>());

/**
 * Estimates tokens of messages and texts: with the model client's `countTokens` where it has one
 * (a provider's tokenizer), else by the heuristic. Each message is counted once (cached by
 * identity) and the estimate is scaled by how far off it was from what the provider reported.
 */
export class TokenEstimator {
  private readonly cache = new WeakMap<object, number>();
  private readonly exact: CountTokens;
  /** The last texts counted: the same text is counted once, however many checks it passes. */
  private readonly recent = new Map<string, number>();
  /** Short texts, shared with every estimator of the same counting function; none for the heuristic. */
  private readonly short: Map<string, number> | undefined;
  /** The counting function: estimates made with it can be shared across sessions. */
  readonly countingKey: CountTokens;
  private readonly definitions: WeakMap<ToolDefinition, number>;
  /** The last list counted (lists are not changed in place: a new offer is a new array). */
  private lastTools: { list: readonly ToolDefinition[]; tokens: number } | undefined;
  /** Reported input tokens / estimated, smoothed; starts at 1. */
  private correction = 1;

  /** Counts with `client.countTokens` when the client has one, else with the heuristic. */
  constructor(client?: Pick<ModelClient, 'countTokens'>) {
    const method = client?.countTokens;
    this.exact = method === undefined ? heuristicTokens : (text) => method.call(client, text);
    this.countingKey = method ?? heuristicTokens;
    this.definitions = definitionTokens.for(this.countingKey);
    this.short = method === undefined ? undefined : shortTextTokens.for(method);
  }

  /** The exact count, made once per text: per process for short texts, per session for recent ones. */
  private count(text: string): number {
    if (text.length === 0) return 0;
    if (this.short === undefined) return this.exact(text);
    const isShort = text.length <= SHORT_TEXT;
    const memo = isShort ? this.short : this.recent;
    const limit = isShort ? SHORT_TEXTS : RECENT_TEXTS;
    let tokens = memo.get(text);
    if (tokens === undefined) {
      tokens = this.exact(text);
      setBounded(memo, text, tokens, limit);
    }
    return tokens;
  }

  text(text: string): number {
    return Math.ceil(this.count(text) * this.correction);
  }

  /** Raw (uncorrected) tokens of a text. */
  rawText(text: string): number {
    return this.count(text);
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
    // A session offers the same list turn after turn, and asks for it several times a turn.
    if (definitions === this.lastTools?.list) return this.lastTools.tokens;
    const cache = this.definitions;
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
    this.lastTools = { list: definitions, tokens: total };
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

  /** A resumed session starts from the correction its snapshot learned. */
  restoreCorrection(value: number): void {
    if (Number.isFinite(value) && value >= 0.25 && value <= 4) this.correction = value;
  }

  get correctionFactor(): number {
    return this.correction;
  }
}
