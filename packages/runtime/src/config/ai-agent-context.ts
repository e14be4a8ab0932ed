import { suggestion } from '../agent-file/suggest.js';
import { type Problem, problem } from '../errors.js';

// What every part of the `.ai-agent.json` translation shares: where problems and warnings go.

export type Json = Record<string, unknown>;
export type LineOf = (path: readonly (string | number)[]) => number | undefined;

export interface Context {
  file: string;
  lineOf: LineOf;
  problems: Problem[];
  warnings: Problem[];
}

export function warn(ctx: Context, path: (string | number)[], message: string): void {
  ctx.warnings.push(problem('configuration', ctx.file, ctx.lineOf(path), message));
}

export function fail(ctx: Context, path: (string | number)[], message: string): void {
  ctx.problems.push(problem('configuration', ctx.file, ctx.lineOf(path), message));
}

/** Unknown keys of an ai-agent section: an error naming the closest key of either format. */
export function checkKeys(
  value: Json,
  allowed: readonly string[],
  ours: readonly string[],
  path: string[],
  ctx: Context,
) {
  const known = [...new Set([...allowed, ...ours])];
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    fail(
      ctx,
      [...path, key],
      `unknown key \`${key}\` in \`${path.join('.')}\`${suggestion(key, known, 'allowed keys')}`,
    );
    delete value[key];
  }
}

/**
 * `toolsAllowed` / `toolsDenied` (of a provider or an MCP server) as this runtime's
 * `allowTools` / `denyTools`. `["*"]` is ai-agent's "everything"; a value that is not a list of
 * strings goes on as it is and fails the schema check with its path.
 */
export function toolGlobs(out: Json): void {
  if ('toolsAllowed' in out) {
    const allowed = out.toolsAllowed;
    if (!(Array.isArray(allowed) && allowed.length === 1 && allowed[0] === '*')) out.allowTools ??= allowed;
    delete out.toolsAllowed;
  }
  if ('toolsDenied' in out) {
    out.denyTools ??= out.toolsDenied;
    delete out.toolsDenied;
  }
}
