/** JSON Pointer (RFC 6901) helpers for AJV `instancePath`s. */
import { pointerSegments } from '@agent/schema';

export function getAt(root: unknown, pointer: string): unknown {
  let current = root;
  for (const segment of pointerSegments(pointer)) {
    if (typeof current !== 'object' || current === null) return undefined;
    if (!Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** Sets the value at `pointer` in place and returns the (possibly new) root. */
export function setAt(root: unknown, pointer: string, value: unknown): unknown {
  const segments = pointerSegments(pointer);
  const last = segments.pop();
  if (last === undefined) return value;
  const parent = getAt(root, segments.length === 0 ? '' : `/${segments.map(escapeSegment).join('/')}`);
  if (typeof parent === 'object' && parent !== null) (parent as Record<string, unknown>)[last] = value;
  return root;
}

function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
