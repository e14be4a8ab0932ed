import { describe, expect, test } from 'vitest';
import { flattened } from '../../src/observe/flat-string.js';

describe('flattened', () => {
  test('hands back the same text for ropes, empty and non-ASCII strings', () => {
    const parts = ['attempt ', String(3), ': ', 'x'.repeat(40), ' messages, ', 'ünïcødé ✓', ' tools'];
    let rope = '';
    for (const part of parts) rope += part;
    expect(flattened(rope)).toBe(parts.join(''));
    expect(flattened('')).toBe('');
    expect(flattened(`${rope}${rope}`)).toBe(parts.join('').repeat(2));
  });
});
