import { describe, expect, it } from 'vitest';
import { parseOpenTag } from '../src/index.js';

describe('parseOpenTag', () => {
  it('takes a tag apart with the streaming grammar', () => {
    expect(parseOpenTag(`<ai-agent-abc-FINAL a="1" b='2' c=3 d>`)).toEqual({
      name: 'ai-agent-abc-FINAL',
      attributes: { a: '1', b: '2', c: '3', d: '' },
      selfClosing: false,
    });
    expect(parseOpenTag('<ai-agent-abc-FINAL />')).toMatchObject({ selfClosing: true, attributes: {} });
  });

  it('keeps an attribute named __proto__ as data', () => {
    const tag = parseOpenTag('<ai-agent-abc-FINAL __proto__="x">');
    expect(Object.entries(tag?.attributes ?? {})).toEqual([['__proto__', 'x']]);
    expect(Object.getPrototypeOf(tag?.attributes)).toBeNull();
  });

  it('refuses what is not exactly one opening tag', () => {
    for (const text of [
      '<ai-agent->',
      '<ai-agent-abc',
      '<ai-agent-abc a="<">',
      '<ai-agent-abc a=>',
      '<ai-agent-abc>x',
      '<div>',
      '<ai-agent-abc a="1"/ >',
    ]) {
      expect(parseOpenTag(text), text).toBeUndefined();
    }
  });
});
