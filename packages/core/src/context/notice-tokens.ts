import { PerCounter, setBounded } from './per-counter.js';
import type { TokenEstimator } from './token-estimator.js';

/** Bodies whose count is kept per counting function (an agent has a few: normal, final, last attempt). */
const MAX_KEPT = 64;

/** What the nonce is replaced by before a body is counted: the same shape, so the count stays honest. */
const NONCE_STAND_IN = '00000000';

/**
 * Body counts shared by every session of the process, per counting function: sessions of one
 * agent send the same body (format, schema, rules) and differ only in their nonce, so the body
 * is counted with a stand-in nonce once per process instead of once per session.
 */
const sharedBodies = new PerCounter(() => new Map<string, number>());

/**
 * Tokens of the XML-NEXT notice, counted by the session's estimator: the final-report schema
 * it carries included. Heads and bodies are counted with a stand-in nonce, so each distinct
 * one is counted once per process: sessions of one agent send the same body, and heads that
 * differ only in turn, attempt and context use.
 */
export class NoticeTokens {
  private readonly bodies: Map<string, number>;

  constructor(
    private readonly estimator: TokenEstimator,
    private readonly nonce: string,
  ) {
    this.bodies = sharedBodies.for(estimator.countingKey);
  }

  /** Heads differ only by turn, attempt and context use once the nonce is stood in: counted per process. */
  rawHead(head: string): number {
    return this.estimator.rawText(head.replaceAll(this.nonce, NONCE_STAND_IN));
  }

  /** Never below `rawHead(head)`. */
  rawHeadBound(head: string): number {
    return this.estimator.rawTextBound(head.replaceAll(this.nonce, NONCE_STAND_IN));
  }

  /** Never below `rawBody(body)`: its count when this process has it, else the estimator's bound. */
  rawBodyBound(body: string): number {
    const key = body.replaceAll(this.nonce, NONCE_STAND_IN);
    return this.bodies.get(key) ?? this.estimator.rawTextBound(key);
  }

  rawBody(body: string): number {
    const key = body.replaceAll(this.nonce, NONCE_STAND_IN);
    let tokens = this.bodies.get(key);
    if (tokens === undefined) {
      tokens = this.estimator.rawText(key);
      setBounded(this.bodies, key, tokens, MAX_KEPT);
    }
    return tokens;
  }
}
