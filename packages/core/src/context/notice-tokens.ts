import type { TokenEstimator } from './token-estimator.js';

/** Bodies whose count is kept (a session uses a few: a normal turn, the final turn, the last attempt). */
const MAX_KEPT = 8;

/**
 * Tokens of the XML-NEXT notice, counted by the session's estimator: the final-report schema
 * it carries included. The notice is rendered anew for each request, but only its head (turn,
 * attempt, context use) changes from one request to the next: the body after the first blank
 * line is counted once and kept.
 */
export class NoticeTokens {
  private readonly bodies = new Map<string, number>();

  constructor(private readonly estimator: TokenEstimator) {}

  raw(text: string): number {
    const split = text.indexOf('\n\n');
    if (split < 0) return this.estimator.rawText(text);
    const body = text.slice(split);
    let bodyTokens = this.bodies.get(body);
    if (bodyTokens === undefined) {
      bodyTokens = this.estimator.rawText(body);
      if (this.bodies.size >= MAX_KEPT) this.bodies.clear();
      this.bodies.set(body, bodyTokens);
    }
    return this.estimator.rawText(text.slice(0, split)) + bodyTokens;
  }

  /** Corrected by what the provider reported so far, like every other estimate. */
  corrected(text: string): number {
    return this.estimator.corrected(this.raw(text));
  }
}
