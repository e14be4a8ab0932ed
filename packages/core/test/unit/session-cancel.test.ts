import { describe, expect, test } from 'vitest';
import { SessionCancel } from '../../src/loop/session-cancel.js';

describe('SessionCancel', () => {
  test('the attempt waiting hears the reason once, after the signal has aborted with it', () => {
    const cancel = new SessionCancel();
    const heard: unknown[] = [];
    cancel.hear((reason) => heard.push([reason, cancel.signal.aborted]));
    const reason = new Error('stop');
    cancel.abort(reason);
    cancel.abort(new Error('again'));
    expect(heard).toEqual([[reason, true]]);
    expect(cancel.signal.reason).toBe(reason);
  });

  test('an attempt that starts after the abort hears it at once; a forgotten one never', () => {
    const cancel = new SessionCancel();
    const forgotten: unknown[] = [];
    const onCancel = (reason: unknown) => forgotten.push(reason);
    cancel.hear(onCancel);
    cancel.forget(onCancel);
    cancel.abort('gone');
    expect(forgotten).toEqual([]);
    const late: unknown[] = [];
    cancel.hear((reason) => late.push(reason));
    expect(late).toEqual(['gone']);
  });

  test('adds no listener to its signal', () => {
    const cancel = new SessionCancel();
    let added = 0;
    const add = cancel.signal.addEventListener.bind(cancel.signal);
    cancel.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      added++;
      add(...args);
    }) as typeof add;
    cancel.hear(() => {});
    expect(added).toBe(0);
  });
});
