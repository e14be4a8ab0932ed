import { type ExpectedOutput, type ForcedFinalReason, REPORT_BACK_TOOL } from '@agent/protocol';
import { joinXmlNext, renderXmlNextBody, renderXmlNextHead } from '@agent/xml-transport';
import type { NoticeBody, NoticeTokens } from '../context/notice-tokens.js';

export interface TurnNoticeInput {
  nonce: string;
  turn: number;
  maxTurns: number;
  attempt: number;
  maxAttempts: number;
  contextPercent: number;
  expected: ExpectedOutput;
  forcedFinal: ForcedFinalReason | undefined;
  allowedTools: readonly string[];
  /** The session offers `report_back`: the notice says the report may go through it. */
  reportBack?: boolean;
}

/** Added to the notice of a session with `report_back` (seed 004). */
export const REPORT_BACK_NOTICE = `Or, instead of the tag, call the ${REPORT_BACK_TOOL} tool natively with the payload as its arguments (no status): that ends the task too.`;

/** A rendered notice and its raw (uncorrected) token count, counted on first read. */
export interface TurnNotice {
  readonly text: string;
  readonly rawTokens: number;
  /** Never below `rawTokens`, and counts nothing the estimator's bound settles. */
  readonly rawTokensBound: number;
}

/**
 * A notice whose head and body are counted only when `rawTokens` is read, and joined only when
 * `text` is (the next turn's notice, rendered for this turn's tool-result checks, is only counted).
 */
class CountedNotice implements TurnNotice {
  private joined: string | undefined;
  private raw: number | undefined;
  // What it was rendered for, as `sameNotice` compares it (not the whole input: kept per session).
  readonly turn: number;
  readonly attempt: number;
  readonly contextPercent: number;
  readonly forcedFinal: ForcedFinalReason | undefined;
  readonly allowedTools: readonly string[];

  constructor(
    private readonly tokens: NoticeTokens,
    private readonly head: string,
    private readonly body: NoticeBody,
    input: TurnNoticeInput,
    readonly lastAttempt: boolean,
  ) {
    this.turn = input.turn;
    this.attempt = input.attempt;
    this.contextPercent = input.contextPercent;
    this.forcedFinal = input.forcedFinal;
    this.allowedTools = input.allowedTools;
  }

  get text(): string {
    this.joined ??= joinXmlNext(this.head, this.body.text);
    return this.joined;
  }

  get rawTokens(): number {
    if (this.raw === undefined) {
      this.raw = this.tokens.rawHead(this.head) + this.tokens.rawBody(this.body);
    }
    return this.raw;
  }

  get rawTokensBound(): number {
    if (this.raw !== undefined) return this.raw;
    return this.tokens.rawHeadBound(this.head) + this.tokens.rawBodyBound(this.body);
  }
}

/** The body's part of the notice for `nonce`: everything after the head. */
function noticeBody(input: Omit<TurnNoticeInput, 'turn' | 'contextPercent'>, nonce: string): string {
  const options: Parameters<typeof renderXmlNextBody>[0] = {
    nonce,
    maxTurns: input.maxTurns,
    attempt: input.attempt,
    maxAttempts: input.maxAttempts,
    format: input.expected.format,
  };
  if (input.expected.schema !== undefined) options.schema = input.expected.schema;
  if (input.forcedFinal !== undefined)
    options.forcedFinal = { reason: input.forcedFinal, allowedTools: input.allowedTools };
  const body = renderXmlNextBody(options);
  return input.reportBack === true ? `${body}\n${REPORT_BACK_NOTICE}` : body;
}

/** Schemas as JSON, once per schema object: bodies are keyed by content, so equal schemas share. */
const schemaTexts = new WeakMap<object, string>();

/** Everything a body depends on but the nonce and the variant: format, schema and `report_back`. */
function sessionKey(input: TurnNoticeInput): string {
  const { schema } = input.expected;
  let schemaKey: string | undefined;
  if (typeof schema === 'object' && schema !== null) {
    schemaKey = schemaTexts.get(schema);
    if (schemaKey === undefined) {
      schemaKey = JSON.stringify(schema) ?? '';
      schemaTexts.set(schema, schemaKey);
    }
  } else {
    schemaKey = schema === undefined ? '' : String(JSON.stringify(schema));
  }
  return `${input.expected.format}/${schemaKey}/${input.reportBack === true}`;
}

function noticeHead(input: TurnNoticeInput): string {
  return renderXmlNextHead({
    nonce: input.nonce,
    turn: input.turn,
    maxTurns: input.maxTurns,
    attempt: input.attempt,
    maxAttempts: input.maxAttempts,
    contextPercent: input.contextPercent,
    format: input.expected.format,
  });
}

/**
 * A session's ephemeral XML-NEXT notices (never stored in the conversation), with their token
 * counts (made when first read). Only the head (turn, attempt, context use) changes between
 * requests; the body is rendered and counted once per variant (a normal turn, the final turn, the last attempt), and
 * the last two notices are kept: a turn's projection and its first request send the same one,
 * and the next turn's notice (for this turn's tool-result checks) is rendered between them.
 */
export class TurnNotices {
  // The first variant's body in fields, others in a map made at the second: most sessions end
  // on their first variant (an empty map is ~180 bytes kept for the whole session).
  private firstVariant: string | undefined;
  private firstBody: NoticeBody | undefined;
  private otherBodies: Map<string, NoticeBody> | undefined;
  private last: CountedNotice | undefined;
  private previous: CountedNotice | undefined;

  constructor(private readonly tokens: NoticeTokens) {}

  render(input: TurnNoticeInput): TurnNotice {
    const lastAttempt = input.attempt > 1 && input.attempt >= input.maxAttempts;
    const last = this.last;
    // Compared field by field, not through a key string: a turn asks for its notice several times.
    if (last !== undefined && last.lastAttempt === lastAttempt && sameNotice(last, input)) return last;
    const previous = this.previous;
    if (previous !== undefined && previous.lastAttempt === lastAttempt && sameNotice(previous, input)) {
      this.previous = last;
      this.last = previous;
      return previous;
    }
    const variant = `${input.forcedFinal ?? ''}/${input.allowedTools.join(',')}/${lastAttempt}`;
    let body = variant === this.firstVariant ? this.firstBody : this.otherBodies?.get(variant);
    if (body === undefined) {
      body = this.tokens.body(`${sessionKey(input)}/${variant}`, (nonce) => noticeBody(input, nonce));
      if (this.firstVariant === undefined) {
        this.firstVariant = variant;
        this.firstBody = body;
      } else {
        this.otherBodies ??= new Map();
        this.otherBodies.set(variant, body);
      }
    }
    const notice = new CountedNotice(this.tokens, noticeHead(input), body, input, lastAttempt);
    this.previous = last;
    this.last = notice;
    return notice;
  }
}

/** Same head and same body variant (the session's fixed fields never change). */
function sameNotice(a: CountedNotice, b: TurnNoticeInput): boolean {
  if (a.turn !== b.turn || a.attempt !== b.attempt || a.contextPercent !== b.contextPercent) return false;
  if (a.forcedFinal !== b.forcedFinal || a.allowedTools.length !== b.allowedTools.length) return false;
  for (let i = 0; i < a.allowedTools.length; i++) if (a.allowedTools[i] !== b.allowedTools[i]) return false;
  return true;
}
