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
 * it carries included. The head (turn, attempt, context use) is counted per request; a body
 * is counted with a stand-in nonce once per process, since sessions of one agent send the
 * same body.
 */
export class NoticeTokens {
  private readonly bodies: Map<string, number>;

  constructor(
    private readonly estimator: TokenEstimator,
    private readonly nonce: string,
  ) {
    this.bodies = sharedBodies.for(estimator.countingKey);
  }

  rawHead(head: string): number {
    return this.estimator.rawText(head);
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
