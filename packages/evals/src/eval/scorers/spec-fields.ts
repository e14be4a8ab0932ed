import { compileJmesPath, type JmesPathExpression } from '@agent/schema';

/** What a built-in scorer's factory is handed: its spec, checked field by field. */
export type SpecFields = Record<string, unknown>;

/** A problem with a spec: the message after the spec's place (`scorers[2]: ...`). */
export class SpecProblem extends Error {}

/** Refuses keys the spec type does not have, naming the ones it has. */
export function onlyKeys(spec: SpecFields, allowed: readonly string[]): void {
  for (const key of Object.keys(spec)) {
    if (key !== 'type' && !allowed.includes(key))
      throw new SpecProblem(
        `${String(spec.type)} has no setting "${key}"; allowed: ${allowed.length > 0 ? allowed.join(', ') : 'none'}`,
      );
  }
}

export function optionalString(spec: SpecFields, key: string): string | undefined {
  const value = spec[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0)
    throw new SpecProblem(`${key} must be a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}

export function requiredString(spec: SpecFields, key: string): string {
  const value = optionalString(spec, key);
  if (value === undefined) throw new SpecProblem(`${String(spec.type)} needs ${key} (a non-empty string)`);
  return value;
}

export function optionalBoolean(spec: SpecFields, key: string): boolean | undefined {
  const value = spec[key];
  if (value !== undefined && typeof value !== 'boolean')
    throw new SpecProblem(`${key} must be true or false, got ${JSON.stringify(value)}`);
  return value;
}

export function optionalNumber(
  spec: SpecFields,
  key: string,
  min = -Infinity,
  max = Infinity,
): number | undefined {
  const value = spec[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max)
    throw new SpecProblem(`${key} must be a number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return value;
}

/** A compiled JMESPath expression from `key`, or undefined when the spec has none. */
export function optionalExpression(spec: SpecFields, key: string): JmesPathExpression | undefined {
  const value = spec[key];
  if (value === undefined) return undefined;
  const compiled = compileJmesPath(value);
  if (typeof compiled === 'string')
    throw new SpecProblem(`${key} ${JSON.stringify(value)} is not a usable JMESPath expression: ${compiled}`);
  return compiled;
}

/** The part of the report a scorer looks at: the whole report, or what `path` selects. */
export function selected(path: JmesPathExpression | undefined, report: unknown): unknown {
  return path === undefined || report === undefined ? report : path.search(report);
}

/** A name for the table: the type, and the path when there is one. */
export function scorerName(type: string, path: JmesPathExpression | undefined): string {
  return path === undefined ? type : `${type}(${path.source})`;
}

/** A value for a one-line reason, cut short. */
export function shown(value: unknown, max = 120): string {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** A pass or a fail with score 1 or 0. */
export function verdict(pass: boolean, reason?: string) {
  return { score: pass ? 1 : 0, pass, ...(reason === undefined ? {} : { reason }) };
}
