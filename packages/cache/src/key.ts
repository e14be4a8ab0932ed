import { createHash } from 'node:crypto';
import { CACHE_VALUE_ERROR_CODE, CacheError } from './errors.js';

/**
 * JSON with the keys of every object in sorted order, so two values that mean the same give the
 * same text whatever order their keys were written in. `undefined` members are left out (as
 * `JSON.stringify` does); anything JSON cannot hold (a function, a cycle, a BigInt) is a
 * `CacheError` (code `cache_value_unsupported`), never a silent mismatch. Walks without recursion: deep input cannot overflow.
 */
export function stableStringify(value: unknown): string {
  let out = '';
  // Each frame writes one value; containers push their members back to front.
  const stack: { value: unknown; prefix: string; suffix: string }[] = [{ value, prefix: '', suffix: '' }];
  const open = new Set<object>();
  const closing: { object: object; text: string }[] = [];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    out += frame.prefix;
    const item = frame.value;
    if (item === closeMarker) {
      const done = closing.pop()!;
      open.delete(done.object);
      out += done.text + frame.suffix;
      continue;
    }
    if (item === null || typeof item === 'boolean' || typeof item === 'string') {
      out += JSON.stringify(item) + frame.suffix;
      continue;
    }
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) throw unsupported(`cannot serialise ${item} for a cache key`);
      out += JSON.stringify(item) + frame.suffix;
      continue;
    }
    if (typeof item !== 'object') throw unsupported(`cannot serialise a ${typeof item} for a cache key`);
    if (open.has(item)) throw unsupported('cannot serialise a cycle for a cache key');
    const json = (item as { toJSON?: () => unknown }).toJSON;
    if (typeof json === 'function') {
      stack.push({ value: json.call(item), prefix: '', suffix: frame.suffix });
      continue;
    }
    open.add(item);
    const isArray = Array.isArray(item);
    closing.push({ object: item, text: isArray ? ']' : '}' });
    stack.push({ value: closeMarker, prefix: '', suffix: frame.suffix });
    const members: { value: unknown; prefix: string }[] = [];
    if (isArray) {
      item.forEach((member, index) => {
        members.push({ value: member === undefined ? null : member, prefix: index === 0 ? '' : ',' });
      });
    } else {
      const keys = Object.keys(item)
        .filter((key) => (item as Record<string, unknown>)[key] !== undefined)
        .sort();
      keys.forEach((key, index) => {
        members.push({
          value: (item as Record<string, unknown>)[key],
          prefix: `${index === 0 ? '' : ','}${JSON.stringify(key)}:`,
        });
      });
    }
    out += isArray ? '[' : '{';
    for (let i = members.length - 1; i >= 0; i--) {
      const member = members[i]!;
      stack.push({ value: member.value, prefix: member.prefix, suffix: '' });
    }
  }
  return out;
}

const closeMarker = Symbol('close');

const unsupported = (message: string) => new CacheError(message, { code: CACHE_VALUE_ERROR_CODE });

/** The SHA-256 (hex) of `stableStringify(parts)`: a cache key for everything that determines an answer. */
export function cacheKey(parts: unknown): string {
  return createHash('sha256').update(stableStringify(parts)).digest('hex');
}
