import type { ErrorObject } from 'ajv';

const MAX_PROBLEMS = 10;

/**
 * Ajv's meta-schema errors as lines a person can act on: `<path>: <message>`, `/` for the
 * root. An `anyOf` summary is dropped when its branches already said what is wrong at the
 * same place; an `enum` lists its allowed values; at most 10 lines, then `… and N more`.
 */
export function metaSchemaProblems(errors: readonly ErrorObject[], schema: unknown): string[] {
  const byPath = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const list = byPath.get(error.instancePath) ?? [];
    list.push(error);
    byPath.set(error.instancePath, list);
  }
  const lines: string[] = [];
  for (const [path, list] of byPath) {
    const where = path === '' ? '/' : path;
    const got = gotValue(valueAt(schema, path));
    const enumError = list.find((e) => e.keyword === 'enum');
    if (enumError !== undefined) {
      const allowed = (enumError.params as { allowedValues?: unknown[] }).allowedValues ?? [];
      const types = list
        .filter((e) => e.keyword === 'type')
        .map((e) => String((e.params as { type: unknown }).type));
      const alternatives = [allowed.map((v) => JSON.stringify(v)).join(', '), ...types.map((t) => `an ${t}`)];
      lines.push(`${where}: must be one of ${alternatives.join(', or ')}${got}`);
      continue;
    }
    const specific = list.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
    for (const error of specific.length > 0 ? specific : list) {
      lines.push(`${where}: ${error.message ?? `fails "${error.keyword}"`}${got}`);
    }
  }
  const unique = [...new Set(lines)];
  if (unique.length <= MAX_PROBLEMS) return unique;
  return [...unique.slice(0, MAX_PROBLEMS), `… and ${unique.length - MAX_PROBLEMS} more`];
}

function valueAt(root: unknown, pointer: string): unknown {
  let current = root;
  for (const raw of pointer.split('/').slice(1)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return current;
}

function gotValue(value: unknown): string {
  if (value === undefined || (typeof value === 'object' && value !== null)) return '';
  const text = JSON.stringify(value) ?? String(value);
  return ` (got ${text.length > 40 ? `${text.slice(0, 39)}…` : text})`;
}
