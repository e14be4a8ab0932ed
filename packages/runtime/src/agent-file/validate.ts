import { REDACTED } from '@agent/protocol';
import { describeValue } from '@agent/protocol/util';
import type { ErrorObject, ValidateFunction } from '@agent/schema';
import { pointerSegments } from '@agent/schema';
import type { SettingProblem } from '../api.js';
import { type Problem, problem } from '../errors.js';
import type { SourceLocator } from '../files/source-locator.js';
import { frontmatter } from '../validators/own-validators.generated.js';
import { closestName, suggestion } from './suggest.js';

export interface ShapeCheck {
  /** Shown file path. */
  file: string;
  locator: SourceLocator | undefined;
  /** Path of `data` inside the document (the config's `defaults` sits under `["defaults"]`). */
  basePath?: readonly (string | number)[];
  /** Values never quoted in messages (secrets). */
  hideValue?: (path: readonly (string | number)[]) => boolean;
}

/**
 * Checks `data` with one of the runtime's own validators (`own-schemas.ts`, generated ahead:
 * no schema is compiled at start); one friendly problem per wrong place, with its file line.
 */
export function schemaProblems(validate: ValidateFunction, data: unknown, check: ShapeCheck): Problem[] {
  if (validate(data)) return [];
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const error of validate.errors ?? []) {
    const path = [...(check.basePath ?? []), ...pointerPath(error.instancePath)];
    const mapped = describeError(error, path, check);
    const key = `${mapped.path.join('.')}|${mapped.message}`;
    if (seen.has(mapped.path.join('.')) || seen.has(key)) continue;
    seen.add(mapped.path.join('.'));
    seen.add(key);
    problems.push(
      problem(
        'configuration',
        check.file,
        check.locator?.lineOf(mapped.path),
        mapped.message,
        mapped.setting,
      ),
    );
  }
  return problems;
}

/** The frontmatter of an agent file (after `normaliseShorthands`). */
export function frontmatterProblems(
  data: Record<string, unknown>,
  file: string,
  locator?: SourceLocator,
): Problem[] {
  return schemaProblems(frontmatter, data, { file, locator });
}

function pointerPath(pointer: string): (string | number)[] {
  return pointerSegments(pointer).map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** `models[1]`, `input.format`, `providers.local.apiKey`. */
export function pathLabel(path: readonly (string | number)[]): string {
  let label = '';
  for (const part of path) label += typeof part === 'number' ? `[${part}]` : label === '' ? part : `.${part}`;
  return label;
}

function expects(schema: unknown): string | undefined {
  const value = (schema as Record<string, unknown> | undefined)?.['x-expects'];
  return typeof value === 'string' ? value : undefined;
}

function describeError(
  error: ErrorObject,
  path: (string | number)[],
  check: ShapeCheck,
): { path: (string | number)[]; message: string; setting?: SettingProblem } {
  const parent = error.parentSchema as Record<string, unknown> | undefined;
  if (error.keyword === 'additionalProperties') {
    const key = String((error.params as { additionalProperty: string }).additionalProperty);
    const allowed = Object.keys((parent?.properties as object | undefined) ?? {});
    const where = path.length === 0 ? '' : ` in \`${pathLabel(path)}\``;
    return {
      path: [...path, key],
      message: `unknown key \`${key}\`${where}${suggestion(key, allowed, 'allowed keys')}`,
      setting: {
        field: pathLabel([...path, key]),
        value: key,
        allowed: `one of the keys ${allowed.join(', ')}`,
      },
    };
  }
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty: string }).missingProperty);
    const property = (parent?.properties as Record<string, unknown> | undefined)?.[missing];
    const what = expects(property);
    const owner = path.length === 0 ? 'this file' : `\`${pathLabel(path)}\``;
    return {
      path,
      message: `${owner} needs \`${missing}\`${what === undefined ? '' : ` (${what})`}`,
      setting: { field: pathLabel([...path, missing]), value: undefined, allowed: what ?? 'a value' },
    };
  }
  const label = pathLabel(path);
  const what = expects(parent) ?? error.message ?? 'a different value';
  const hidden = check.hideValue?.(path) === true;
  const got = hidden ? '' : `, got ${describeValue(error.data)}`;
  let hint = '';
  if (error.keyword === 'enum' && typeof error.data === 'string') {
    const values = ((error.params as { allowedValues?: unknown[] }).allowedValues ?? []).map(String);
    const best = closestName(error.data, values);
    if (best !== undefined) hint = `; did you mean \`${best}\`?`;
  }
  return {
    path,
    message: `\`${label}\` must be ${what}${got}${hint}`,
    setting: { field: label, value: hidden ? REDACTED : error.data, allowed: what },
  };
}
