import { escapePointer } from './json-pointer.js';

/** What `measureJson` found: the value's nesting depth and its size as compact JSON. */
export type JsonShape =
  | { ok: true; depth: number; bytes: number }
  | { ok: false; problem: string; path: string };

export interface MeasureOptions {
  /** Stop and report when the value nests deeper than this (JSON levels). */
  maxDepth: number;
  /** Stop and report when the compact JSON text grows past this many bytes (default: no limit). */
  maxBytes?: number;
}

interface Frame {
  value: object;
  depth: number;
  path: string;
  /** Children not yet visited, as [key, value] pairs. */
  entries: [string, unknown][];
  next: number;
}

/**
 * Walks a value iteratively (no recursion, so no stack overflow however deep it is) and
 * measures its depth and compact-JSON size, stopping at the first limit it crosses. Values
 * JSON cannot hold (functions, symbols, bigints) and cycles are problems too: a schema must
 * be plain JSON data. Non-finite numbers and `undefined` array items count as `null`, as
 * `JSON.stringify` writes them.
 */
export function measureJson(root: unknown, options: MeasureOptions): JsonShape {
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  let bytes = 0;
  let deepest = 0;
  const stack: Frame[] = [];
  const onPath = new Set<object>();

  const visit = (value: unknown, depth: number, path: string): JsonShape | undefined => {
    const scalar = scalarBytes(value);
    if (typeof scalar === 'string') return { ok: false, problem: scalar, path };
    if (scalar !== undefined) {
      bytes += scalar;
      return undefined;
    }
    const object = value as object;
    if (depth > options.maxDepth) {
      return {
        ok: false,
        problem: `nests deeper than the limit of ${options.maxDepth} levels`,
        path,
      };
    }
    if (onPath.has(object)) return { ok: false, problem: 'refers to itself (a cycle)', path };
    onPath.add(object);
    deepest = Math.max(deepest, depth);
    const entries: [string, unknown][] = Array.isArray(object)
      ? object.map((item, index) => [String(index), item === undefined ? null : item])
      : Object.entries(object).filter(([, v]) => v !== undefined);
    bytes += 2 + Math.max(0, entries.length - 1);
    if (!Array.isArray(object)) for (const [key] of entries) bytes += stringBytes(key) + 1;
    stack.push({ value: object, depth, path, entries, next: 0 });
    return undefined;
  };

  const first = visit(root, 1, '');
  if (first !== undefined) return first;
  while (stack.length > 0) {
    if (bytes > maxBytes) return tooLarge(maxBytes);
    const frame = stack[stack.length - 1]!;
    const entry = frame.entries[frame.next];
    if (entry === undefined) {
      onPath.delete(frame.value);
      stack.pop();
      continue;
    }
    frame.next++;
    const problem = visit(entry[1], frame.depth + 1, `${frame.path}/${escapePointer(entry[0])}`);
    if (problem !== undefined) return problem;
  }
  if (bytes > maxBytes) return tooLarge(maxBytes);
  return { ok: true, depth: deepest, bytes };
}

function tooLarge(maxBytes: number): JsonShape {
  return { ok: false, problem: `is larger than the limit of ${maxBytes} bytes as JSON`, path: '' };
}

/** Bytes of a scalar as JSON; undefined for objects and arrays; a string for what JSON cannot hold. */
function scalarBytes(value: unknown): number | string | undefined {
  switch (typeof value) {
    case 'string':
      return stringBytes(value);
    case 'number':
      // JSON.stringify writes NaN and the infinities as null (and JSON.parse makes 1e999 Infinity).
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      return value === null ? 4 : undefined;
    default:
      return `is a ${typeof value}, which JSON cannot hold`;
  }
}

/** UTF-8 bytes of a string as a JSON string literal (quotes included; escapes counted roughly). */
function stringBytes(text: string): number {
  return Buffer.byteLength(text, 'utf8') + 2;
}
