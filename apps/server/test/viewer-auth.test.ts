import type { IncomingMessage } from 'node:http';
import { principalId } from '@agent/headends';
import { describe, expect, it } from 'vitest';
import { MAX_VIEWER_SESSIONS, VIEWER_COOKIE, ViewerAuth } from '../src/viewer/viewer-auth.js';

/** A request carrying `cookie` (the Set-Cookie value's first pair). */
const withCookie = (setCookie: string) =>
  ({ headers: { cookie: setCookie.split(';')[0] } }) as unknown as IncomingMessage;

describe('viewer sessions', () => {
  it('map to the principal that signed in, expire, and are bounded in number (the oldest go)', () => {
    let now = 1_000_000;
    const auth = new ViewerAuth({
      tokens: ['alice'],
      operatorTokens: ['ops'],
      maxSessions: 2,
      sessionSeconds: 60,
      now: () => now,
    });
    expect(auth.principalOfToken('mallory')).toBeUndefined();
    const alice = auth.startSession(auth.principalOfToken('alice')!);
    expect(alice.startsWith(`${VIEWER_COOKIE}=`)).toBe(true);
    expect(auth.principalOf(withCookie(alice))).toEqual({ id: principalId('alice'), operator: false });
    const ops = auth.startSession(auth.principalOfToken('ops')!);
    expect(auth.principalOf(withCookie(ops))?.operator).toBe(true);
    // A third session ends the oldest (Alice's).
    const third = auth.startSession(auth.principalOfToken('alice')!);
    expect(auth.principalOf(withCookie(alice))).toBeUndefined();
    expect(auth.size).toBe(2);
    // After its lifetime a session lets nobody in.
    now += 61_000;
    expect(auth.principalOf(withCookie(third))).toBeUndefined();
  });

  it('holds at most MAX_VIEWER_SESSIONS by default', () => {
    const auth = new ViewerAuth({ tokens: ['t'] });
    const principal = auth.principalOfToken('t')!;
    for (let at = 0; at < MAX_VIEWER_SESSIONS + 10; at++) auth.startSession(principal);
    expect(auth.size).toBe(MAX_VIEWER_SESSIONS);
  });
});
