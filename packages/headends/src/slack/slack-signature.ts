import { createHmac, timingSafeEqual } from 'node:crypto';

/** Why a request's Slack signature was refused, or undefined when it is good. */
export function signatureProblem(
  signingSecret: string,
  headers: { signature: string | undefined; timestamp: string | undefined },
  rawBody: string,
  windowSeconds: number,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): string | undefined {
  const { signature, timestamp } = headers;
  if (signature === undefined || timestamp === undefined) {
    return 'missing X-Slack-Signature or X-Slack-Request-Timestamp';
  }
  if (!/^\d{1,12}$/.test(timestamp)) return 'X-Slack-Request-Timestamp must be Unix seconds';
  if (Math.abs(nowSeconds - Number(timestamp)) > windowSeconds) {
    return `the request timestamp is more than ${windowSeconds} s away from now`;
  }
  const expected = `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
  const a = Buffer.from(signature);
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return 'the signature does not match';
  return undefined;
}

/** Signed requests remembered at once (default 10,000); beyond it new ones are refused, not forgotten. */
export const DEFAULT_REPLAY_CACHE_SIZE = 10_000;

/**
 * The signatures of the requests taken within the signature window, so a captured request sent
 * again (same timestamp, same body, same signature) is refused. A signature is kept until its
 * timestamp leaves the window; only requests whose signature checked out are remembered.
 */
export class ReplayCache {
  /** Signature to the Unix second after which its timestamp is out of the window. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly windowSeconds: number,
    private readonly maxEntries = DEFAULT_REPLAY_CACHE_SIZE,
  ) {}

  /** Why `signature` (already verified) is refused, or undefined when it is new and now remembered. */
  take(
    signature: string,
    timestamp: string,
    nowSeconds: number = Math.floor(Date.now() / 1000),
  ): string | undefined {
    if (this.seen.has(signature)) return 'this signed request was already received (a replay)';
    if (this.seen.size >= this.maxEntries) this.forgetExpired(nowSeconds);
    if (this.seen.size >= this.maxEntries) {
      return `more than ${this.maxEntries} signed requests within ${this.windowSeconds} s: retry later`;
    }
    this.seen.set(signature, Number(timestamp) + this.windowSeconds);
    if (this.seen.size % 256 === 0) this.forgetExpired(nowSeconds);
    return undefined;
  }

  private forgetExpired(nowSeconds: number): void {
    for (const [signature, until] of this.seen) if (until < nowSeconds) this.seen.delete(signature);
  }
}
