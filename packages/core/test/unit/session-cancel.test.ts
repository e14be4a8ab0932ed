import { describe, expect, test } from 'vitest';
import { SessionCancel } from '../../src/loop/session-cancel.js';

describe('SessionCancel', () => {
  test('every attempt and call waiting hears it once, after the signal has aborted with the reason', () => {
    const cancel = new SessionCancel();
    const heard: unknown[] = [];
    cancel.add(() => heard.push(['attempt', cancel.signal.reason, cancel.signal.aborted]));
    cancel.add(() => heard.push(['call', cancel.signal.reason]));
    const reason = new Error('stop');
    cancel.abort(reason);
    cancel.abort(new Error('again'));
    expect(heard).toEqual([
      ['attempt', reason, true],
      ['call', reason],
    ]);
    expect(cancel.signal.reason).toBe(reason);
  });

  test('an attempt that starts after the abort hears it at once; a forgotten one never', () => {
    const cancel = new SessionCancel();
    const forgotten: unknown[] = [];
    const onCancel = () => forgotten.push(cancel.signal.reason);
    cancel.add(onCancel);
    cancel.delete(onCancel);
    cancel.abort('gone');
    expect(forgotten).toEqual([]);
    const late: unknown[] = [];
    cancel.add(() => late.push(cancel.signal.reason));
    expect(late).toEqual(['gone']);
  });

  test('callbacks added, forgotten and added again are each heard once, in the order they came', () => {
    const cancel = new SessionCancel();
    const heard: string[] = [];
    const callback = (name: string) => () => heard.push(name);
    const attempt = callback('attempt');
    const first = callback('first call');
    const second = callback('second call');
    const third = callback('third call');
    cancel.add(attempt);
    cancel.add(attempt);
    cancel.add(first);
    cancel.add(second);
    cancel.delete(attempt);
    cancel.delete(first);
    cancel.add(third);
    cancel.add(second);
    cancel.add(attempt);
    cancel.abort('stop');
    expect(heard).toEqual(['second call', 'third call', 'attempt']);
  });

  test('adds no listener to its signal', () => {
    const cancel = new SessionCancel();
    let added = 0;
    const add = cancel.signal.addEventListener.bind(cancel.signal);
    cancel.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      added++;
      add(...args);
    }) as typeof add;
    cancel.add(() => {});
    expect(added).toBe(0);
  });
});
