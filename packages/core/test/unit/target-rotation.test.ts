import { ModelError, type ModelTarget } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { classifyModelError } from '../../src/loop/error-policy.js';
import { TargetRotation } from '../../src/loop/target-rotation.js';

const target = (name: string): ModelTarget => ({
  client: { provider: name, model: name, stream: async function* () {} },
});

describe('TargetRotation', () => {
  test('moves to the next live target on each failure and wraps around', () => {
    const [a, b, c] = [target('a'), target('b'), target('c')];
    const rotation = new TargetRotation([a, b, c]);
    const seen = [rotation.current()];
    for (let i = 0; i < 4; i++) {
      rotation.advance();
      seen.push(rotation.current());
    }
    expect(seen).toEqual([a, b, c, a, b]);
    rotation.resetForTurn();
    expect(rotation.current()).toBe(a);
  });

  test('dropped targets are skipped; with none left the exit code names why', () => {
    const [a, b] = [target('a'), target('b')];
    const rotation = new TargetRotation([a, b]);
    rotation.drop(a, 'quota');
    expect(rotation.current()).toBe(b);
    rotation.drop(b, 'auth');
    expect(rotation.current()).toBeUndefined();
    expect(rotation.exhaustedExitCode()).toBe('EXIT-AUTH-FAILURE');
  });

  test('context drops come back for the final turn', () => {
    const a = target('a');
    const rotation = new TargetRotation([a]);
    rotation.drop(a, 'context');
    expect(rotation.exhaustedExitCode()).toBe('EXIT-TOKEN-LIMIT');
    rotation.restoreContextDrops();
    expect(rotation.current()).toBe(a);
  });

  test('waits only when every live target is rate-limited, for the shortest wait, clamped', () => {
    const [a, b] = [target('a'), target('b')];
    const rotation = new TargetRotation([a, b]);
    rotation.markRateLimited(a, new ModelError({ kind: 'rate_limit', message: '', retryAfterMs: 90_000 }));
    expect(rotation.takeRateLimitWait()).toBe(0);
    rotation.markRateLimited(b, new ModelError({ kind: 'rate_limit', message: '', retryAfterMs: 70_000 }));
    expect(rotation.takeRateLimitWait()).toBe(60_000);
    expect(rotation.takeRateLimitWait()).toBe(0);
    rotation.markRateLimited(a, new ModelError({ kind: 'rate_limit', message: '' }));
    rotation.markRateLimited(b, new ModelError({ kind: 'rate_limit', message: '', retryAfterMs: 5 }));
    expect(rotation.takeRateLimitWait()).toBe(1000);
  });
});

describe('classifyModelError', () => {
  test.each([
    ['auth', 'drop-target'],
    ['quota', 'drop-target'],
    ['model_not_found', 'drop-target'],
    ['context_length', 'context'],
    ['rate_limit', 'rate-limited'],
    ['timeout', 'retry'],
    ['network', 'retry'],
    ['server', 'retry'],
    ['bad_request', 'drop-target'],
    ['content_filter', 'retry'],
    ['invalid_response', 'retry'],
    ['aborted', 'retry'],
  ] as const)('%s -> %s', (kind, action) => {
    expect(classifyModelError(new ModelError({ kind, message: kind }), false).kind).toBe(action);
  });

  test('a bad_request the provider marks retryable is retried', () => {
    const error = new ModelError({ kind: 'bad_request', message: '', retryable: true });
    expect(classifyModelError(error, false).kind).toBe('retry');
  });

  test('anything after the session was cancelled is an abort', () => {
    expect(classifyModelError(new ModelError({ kind: 'server', message: '' }), true).kind).toBe('aborted');
  });
});
