import { createHash } from 'node:crypto';

const MAX = 64;

function clean(raw: string): string {
  let name = raw.replace(/[^A-Za-z0-9_-]/g, '_').replace(/_{3,}/g, '__');
  if (!/^[A-Za-z_]/.test(name)) name = `_${name}`;
  return name;
}

/**
 * Tool names for operations: `<prefix>__<operationId or method_path>`, letters, digits, `_`, `-`,
 * at most 64 characters. A name that is too long, or that two operations would share, gets 8
 * characters of a hash of its operation's `METHOD path` instead of its end, so the result does
 * not depend on the order of the operations. One pass over the list (plus a map): linear.
 */
export function operationToolNames(
  prefix: string,
  operations: readonly { key: string; id: string }[],
): Map<string, string> {
  const wanted = new Map<string, string[]>();
  for (const op of operations) {
    const name = clean(`${prefix}__${op.id}`);
    const list = wanted.get(name);
    if (list === undefined) wanted.set(name, [op.key]);
    else list.push(op.key);
  }
  const out = new Map<string, string>();
  for (const [name, keys] of wanted) {
    for (const key of keys) {
      if (keys.length === 1 && name.length <= MAX) {
        out.set(key, name);
        continue;
      }
      const hash = createHash('sha256').update(key).digest('hex').slice(0, 8);
      out.set(key, `${name.slice(0, MAX - 9)}_${hash}`);
    }
  }
  return out;
}

/** An argument name usable in a `${parameters.x}` template and as a schema property. */
export function argumentName(raw: string): string {
  return raw.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
}
