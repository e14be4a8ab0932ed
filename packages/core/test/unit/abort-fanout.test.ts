import { describe, expect, test } from 'vitest';
import { AbortFanout } from '../../src/tools/abort-fanout.js';

/** Counts the 'abort' listeners a signal has, by wrapping its add and remove. */
function watched(signal: AbortSignal) {
  let listeners = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((...args: Parameters<typeof add>) => {
    listeners++;
    add(...args);
  }) as typeof add;
  signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
    listeners--;
    remove(...args);
  }) as typeof remove;
  return () => listeners;
}

describe('AbortFanout', () => {
  test('every call waiting when the session aborts hears it once, through one listener', () => {
    const controller = new AbortController();
    const listeners = watched(controller.signal);
    const fanout = new AbortFanout(controller.signal);
    const heard: string[] = [];
    const a = () => heard.push('a');
    const b = () => heard.push('b');
    fanout.add(a);
    fanout.add(b);
    expect(listeners()).toBe(1);
    controller.abort(new Error('stop'));
    expect(heard).toEqual(['a', 'b']);
    fanout.delete(a);
    fanout.delete(b);
    expect(heard).toEqual(['a', 'b']);
  });

  test('the listener goes when the last call is done, so a long-lived signal keeps nothing', () => {
    const controller = new AbortController();
    const listeners = watched(controller.signal);
    const fanout = new AbortFanout(controller.signal);
    const a = () => {};
    const b = () => {};
    fanout.add(a);
    fanout.add(b);
    fanout.delete(a);
    expect(listeners()).toBe(1);
    fanout.delete(b);
    expect(listeners()).toBe(0);
    fanout.delete(b);
    expect(listeners()).toBe(0);
    let heard = 0;
    fanout.add(() => heard++);
    expect(listeners()).toBe(1);
    controller.abort();
    expect(heard).toBe(1);
  });

  test('a call added after the abort hears it at once', () => {
    const controller = new AbortController();
    controller.abort('gone');
    const fanout = new AbortFanout(controller.signal);
    let heard = 0;
    fanout.add(() => heard++);
    expect(heard).toBe(1);
    expect(fanout.signal.reason).toBe('gone');
  });
});
