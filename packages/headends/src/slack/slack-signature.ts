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
