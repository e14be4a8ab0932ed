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

/**
 * Counting functions that have counted in this process: their tokenizer is loaded, so an upper
 * bound no longer saves anything and only adds work (`boundsHelp`).
 */
const countedWith = new WeakSet<CountTokens>();

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
  // The client and its methods, called through `exact` and `bound` (no closures per session).
  private readonly client: Pick<ModelClient, 'countTokens' | 'countTokensBound'> | undefined;
  private readonly exactMethod: CountTokens | undefined;
  private readonly boundMethod: CountTokens | undefined;
  private readonly hasBound: boolean;
  /** Kept once seen: a tokenizer, once loaded, stays loaded. */
  private tokenizerLoaded = false;
  /**
   * The last long texts counted: the same text is counted once, however many checks it passes.
   * Made with the first long text (many sessions count none).
   */
  private recent: Map<string, number> | undefined;
  /** Short texts, shared with every estimator of the same counting function; none for the heuristic. */
  private readonly short: Map<string, number> | undefined;
  /** The counting function: estimates made with it can be shared across sessions. */
  readonly countingKey: CountTokens;
  private readonly definitions: WeakMap<ToolDefinition, number>;
  /** The last list counted (lists are not changed in place: a new offer is a new array). */
  private lastTools: { list: readonly ToolDefinition[]; tokens: number } | undefined;
  /** Reported input tokens / estimated, smoothed; starts at 1. */
  private factor = 1;
  /** Provider reports not learned from yet: their estimates are counted when the correction is next read. */
  private readonly pending: { reported: number; rawEstimate: number | (() => number) }[] = [];

  /**
   * Counts with `client.countTokens` when the client has one, else with the heuristic; bounds
   * with `client.countTokensBound` when it has that too.
   */
  constructor(client?: Pick<ModelClient, 'countTokens' | 'countTokensBound'>) {
    const method = client?.countTokens;
    this.client = client;
    this.exactMethod = method;
    this.boundMethod = method === undefined ? undefined : client?.countTokensBound;
    this.hasBound = this.boundMethod !== undefined;
    this.countingKey = method ?? heuristicTokens;
    this.definitions = definitionTokens.for(this.countingKey);
    this.short = method === undefined ? undefined : shortTextTokens.for(method);
  }

  /** The client's count, or the heuristic when it has none. */
  private exact(text: string): number {
    const method = this.exactMethod;
    return method === undefined ? heuristicTokens(text) : method.call(this.client, text);
  }

  /** Never below `exact` and cheap (loads no tokenizer); the (cached) exact count when the client has none. */
  private bound(text: string): number {
    const method = this.boundMethod;
    return method === undefined ? this.count(text) : method.call(this.client, text);
  }

  /** The exact count, made once per text: per process for short texts, per session for recent ones. */
  private count(text: string): number {
    if (text.length === 0) return 0;
    if (this.short === undefined) return this.exact(text);
    const isShort = text.length <= SHORT_TEXT;
    if (!isShort) this.recent ??= new Map();
    const memo = isShort ? this.short : this.recent!;
    const limit = isShort ? SHORT_TEXTS : RECENT_TEXTS;
    let tokens = memo.get(text);
    if (tokens === undefined) {
      tokens = this.exact(text);
      setBounded(memo, text, tokens, limit);
      countedWith.add(this.countingKey);
    }
    return tokens;
  }

  /**
   * Whether trying the upper bound before an exact count can save anything: only while the client
   * has a bound and its tokenizer has not counted in this process yet (the bound exists to keep a
   * small first request from loading it). Afterwards the exact count is taken at once.
   */
  get boundsHelp(): boolean {
    if (!this.hasBound || this.tokenizerLoaded) return false;
    this.tokenizerLoaded = countedWith.has(this.countingKey);
    return !this.tokenizerLoaded;
  }

  /** A number never below `rawText(text)`: the exact count when it is known, else the client's bound. */
  rawTextBound(text: string): number {
    if (text.length === 0) return 0;
    const known = (text.length <= SHORT_TEXT ? this.short : this.recent)?.get(text);
    return known ?? this.bound(text);
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

  /** Never below `rawMessages(messages)`; counts nothing the bound settles. */
  rawMessagesBound(messages: readonly ConversationMessage[]): number {
    let total = 0;
    for (const message of messages) {
      const cached = this.cache.get(message);
      if (cached !== undefined) {
        total += cached;
        continue;
      }
      total += PER_MESSAGE_OVERHEAD + this.rawTextBound(message.content);
      if (message.role !== 'assistant') continue;
      for (const part of message.reasoning ?? []) total += this.rawTextBound(part.text);
      for (const call of message.toolCalls ?? []) {
        total += this.rawTextBound(call.name);
        total += this.rawTextBound(call.rawArguments ?? JSON.stringify(call.arguments));
      }
    }
    return total;
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
      // A deferred tool is sent but not in the model's context until a search loads it.
      if (definition.deferLoading === true) continue;
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

  /** Never below `rawTools(definitions)`; counts nothing the bound settles. */
  rawToolsBound(definitions: readonly ToolDefinition[]): number {
    let total = 0;
    for (const definition of definitions) {
      if (definition.deferLoading === true) continue;
      total +=
        this.definitions.get(definition) ??
        this.bound(definition.name + definition.description + JSON.stringify(definition.inputSchema));
    }
    return total;
  }

  corrected(rawTokens: number): number {
    return Math.ceil(rawTokens * this.correction);
  }

  /**
   * Learns from the provider: `reported` input tokens for a request we estimated at
   * `rawEstimate`. A function is counted only when the correction is next read: a session
   * that ends with this answer never counts its request exactly.
   */
  observe(reported: number, rawEstimate: number | (() => number)): void {
    if (reported <= 0) return;
    this.pending.push({ reported, rawEstimate });
  }

  /** A resumed session starts from the correction its snapshot learned. */
  restoreCorrection(value: number): void {
    this.pending.length = 0;
    if (Number.isFinite(value) && value >= 0.25 && value <= 4) this.factor = value;
  }

  get correctionFactor(): number {
    return this.correction;
  }

  /**
   * The correction the estimates made so far used, without learning from the reports not yet
   * counted (a finished session's snapshot: it never estimates again, so nothing is counted for it).
   */
  get appliedCorrection(): number {
    return this.factor;
  }

  /** Reported input tokens / estimated, smoothed over the reports so far; starts at 1. */
  private get correction(): number {
    // Read several times a turn: nothing is allocated when no report waits (the common case).
    if (this.pending.length === 0) return this.factor;
    for (const { reported, rawEstimate } of this.pending.splice(0)) {
      const estimate = typeof rawEstimate === 'number' ? rawEstimate : rawEstimate();
      if (estimate <= 0) continue;
      const ratio = Math.min(4, Math.max(0.25, reported / estimate));
      this.factor = this.factor === 1 ? ratio : this.factor * 0.5 + ratio * 0.5;
    }
    return this.factor;
  }
}
