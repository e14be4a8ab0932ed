import { dirname, resolve } from 'node:path';
import { displayPath, type Problem, problem } from '../errors.js';
import { formatBytes } from '../files/read-regular-file.js';
import { PROMPT_VARIABLE_NAMES, unknownPromptVariables } from './prompt-variables.js';
import type { ReferenceScope } from './reference-scope.js';
import { readReferencedFile } from './referenced-file.js';
import { suggestion } from './suggest.js';

/**
 * `{{include: path}}` or `${include:path}` (ai-agent's form): replaced by the file's text; the
 * path is relative to the including file.
 */
export const INCLUDE_PATTERN = /\{\{\s*include:\s*([^}\n]+?)\s*\}\}|\$\{include:\s*([^}\n]+?)\s*\}/g;

const MAX_INCLUDE_DEPTH = 16;

/** The most text the includes of one agent file may add up to (one file may be included many times). */
export const MAX_INCLUDED_BYTES = 4 * 1024 * 1024;

export interface IncludeContext {
  /** Absolute path of the file whose text this is. */
  path: string;
  /** File line the text starts on. */
  firstLine: number;
  cwd: string;
  /** Where included files may be. */
  scope: ReferenceScope;
  /** Bytes the includes may still add (shared by the whole expansion). */
  budget: { remaining: number };
  /** Where variables no run fills in are reported (each file's own lines). */
  warnings?: Problem[];
}

/**
 * Expands every `{{include: path}}` in `text`, recursively. A missing or refused file (see
 * `readReferencedFile`), a cycle (`a.md -> b.md -> a.md`), nesting deeper than 16 or
 * includes adding up to more than `MAX_INCLUDED_BYTES` is a problem naming the including line.
 */
export function expandIncludes(
  text: string,
  context: IncludeContext,
  problems: Problem[],
  chain: readonly string[] = [context.path],
): string {
  if (context.warnings !== undefined) warnUnknownVariables(text, context, context.warnings);
  return text.replace(
    INCLUDE_PATTERN,
    (directive: string, braces: string | undefined, dollar: string | undefined, offset: number) => {
      const target = (braces ?? dollar)!;
      const line = context.firstLine + countNewlines(text, offset);
      const file = displayPath(context.path, context.cwd);
      const included = resolve(dirname(context.path), target);
      if (chain.includes(included)) {
        const cycle = [...chain.slice(chain.indexOf(included)), included].map((p) =>
          displayPath(p, context.cwd),
        );
        problems.push(problem('agent_tree', file, line, `include cycle: ${cycle.join(' -> ')}`));
        return directive;
      }
      if (chain.length > MAX_INCLUDE_DEPTH) {
        problems.push(
          problem('agent_tree', file, line, `includes nest deeper than ${MAX_INCLUDE_DEPTH} files`),
        );
        return directive;
      }
      if (context.budget.remaining < 0) return directive;
      const content = readReferencedFile(
        included,
        'included file',
        target,
        { file, line },
        context.scope,
        problems,
      );
      if (content === undefined) return directive;
      context.budget.remaining -= Buffer.byteLength(content);
      if (context.budget.remaining < 0) {
        problems.push(
          problem(
            'configuration',
            file,
            line,
            `includes add up to more than the limit of ${formatBytes(MAX_INCLUDED_BYTES)} of text (at \`${target}\`)`,
          ),
        );
        return directive;
      }
      const body = content.replace(/\r?\n$/, '');
      return expandIncludes(body, { ...context, path: included, firstLine: 1 }, problems, [
        ...chain,
        included,
      ]);
    },
  );
}

function warnUnknownVariables(text: string, context: IncludeContext, warnings: Problem[]): void {
  const file = displayPath(context.path, context.cwd);
  for (const found of unknownPromptVariables(text, context.firstLine)) {
    const message = `unknown prompt variable \`${found.written}\`: the model gets it as written${suggestion(found.name, PROMPT_VARIABLE_NAMES, 'known variables')}`;
    if (warnings.some((w) => w.file === file && w.line === found.line && w.message === message)) continue;
    warnings.push(problem('configuration', file, found.line, message));
  }
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < end; index = text.indexOf('\n', index + 1))
    count++;
  return count;
}
