/**
 * A config value that cannot be used (a variable nobody set, a header value no HTTP header
 * can carry): an error only when the entry holding it is used. Its message never holds the value.
 */
export abstract class UnusableValue {
  constructor(
    /** Shown path of the config file. */
    readonly file: string,
    readonly line: number | undefined,
    /** Where in the file: `providers.anthropic.apiKey`. */
    readonly where: string,
  ) {}

  abstract get message(): string;
}

/** A value that named a variable nobody set. */
export class MissingVariable extends UnusableValue {
  constructor(
    readonly variable: string,
    file: string,
    line: number | undefined,
    where: string,
  ) {
    super(file, line, where);
  }

  get message(): string {
    return `\`${this.where}\` uses \${${this.variable}}, which is not set (not in the .env beside the file nor in the environment); set it or write \${${this.variable}:-default}`;
  }
}

export type Lookup = (name: string) => string | undefined;

/** `${VAR}`, `${VAR:-default}` and `$${` (a literal `${`). */
const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface SubstitutionResult {
  value: string;
  /** Variables used (set or defaulted), with their values. */
  used: { name: string; value: string }[];
  /** The first variable that was neither set nor defaulted. */
  missing?: string;
}

/** Fills the references of one string. A variable set to `''` counts as unset for `:-`. */
export function substituteString(text: string, lookup: Lookup): SubstitutionResult {
  const used: { name: string; value: string }[] = [];
  let missing: string | undefined;
  const value = text.replace(
    REFERENCE,
    (match: string, name: string | undefined, fallback: string | undefined) => {
      if (match === '$${') return '${';
      const found = lookup(name!);
      if (found !== undefined && (found !== '' || fallback === undefined)) {
        used.push({ name: name!, value: found });
        return found;
      }
      if (fallback !== undefined) return fallback;
      missing ??= name;
      return match;
    },
  );
  return { value, used, ...(missing === undefined ? {} : { missing }) };
}

export interface SubstitutedTree {
  value: unknown;
  /** Every string that used a variable: where, and the values used. */
  uses: { path: (string | number)[]; value: string; variables: { name: string; value: string }[] }[];
}

/**
 * Substitutes every string of a parsed JSON tree. A string that names an unset variable
 * becomes a `MissingVariable` (with the line from `lineOf`).
 */
export function substituteTree(
  tree: unknown,
  lookup: Lookup,
  where: { file: string; lineOf: (path: (string | number)[]) => number | undefined },
): SubstitutedTree {
  const uses: SubstitutedTree['uses'] = [];
  const walk = (node: unknown, path: (string | number)[]): unknown => {
    if (typeof node === 'string') {
      if (!node.includes('${')) return node;
      const result = substituteString(node, lookup);
      if (result.missing !== undefined) {
        return new MissingVariable(result.missing, where.file, where.lineOf(path), labelOf(path));
      }
      if (result.used.length > 0) uses.push({ path, value: result.value, variables: result.used });
      return result.value;
    }
    if (Array.isArray(node)) return node.map((item, index) => walk(item, [...path, index]));
    if (typeof node === 'object' && node !== null) {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(node)) out[key] = walk(value, [...path, key]);
      return out;
    }
    return node;
  };
  return { value: walk(tree, []), uses };
}

export function labelOf(path: readonly (string | number)[]): string {
  return path
    .map((part) => (typeof part === 'number' ? `[${part}]` : part))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** The first `UnusableValue` inside a value, if any. */
export function findUnusable(value: unknown): UnusableValue | undefined {
  if (value instanceof UnusableValue) return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findUnusable(item);
      if (found !== undefined) return found;
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) {
      const found = findUnusable(item);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
