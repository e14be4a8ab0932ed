import { isAbsolute, relative } from 'node:path';
import { AgentError } from '@agent/protocol';
import type { RuntimeErrorInit, RuntimeErrorKind, ValidationProblem } from './api.js';

/**
 * Why the runtime could not load or start an agent (never a model's failure). Its `code` is its
 * `kind` (`configuration`, `not_found`, `agent_tree`). The message starts with `file:line:` when
 * both are known, so a caller that prints `file:line: message` can tell it is already located.
 */
export class RuntimeError extends AgentError {
  override readonly name = 'RuntimeError';
  readonly kind: RuntimeErrorKind;
  readonly file?: string;
  readonly line?: number;

  constructor(init: RuntimeErrorInit) {
    super(init.kind, init.message, { cause: init.cause });
    this.kind = init.kind;
    if (init.file !== undefined) this.file = init.file;
    if (init.line !== undefined) this.line = init.line;
  }
}

/** One problem found while loading, with where it is; becomes a `ValidationProblem` or a `RuntimeError`. */
export interface Problem extends ValidationProblem {
  kind: RuntimeErrorKind;
}

export function problem(
  kind: RuntimeErrorKind,
  file: string,
  line: number | undefined,
  message: string,
): Problem {
  return { kind, file, ...(line === undefined ? {} : { line }), message };
}

/** `file:line: message`, or `file: message`. */
export function locatedMessage(p: ValidationProblem): string {
  return p.line === undefined ? `${p.file}: ${p.message}` : `${p.file}:${p.line}: ${p.message}`;
}

/** The first problem as a thrown error; the message lists every problem, each on its own line. */
export function problemsError(problems: readonly Problem[]): RuntimeError {
  const first = problems[0];
  if (first === undefined) return new RuntimeError({ kind: 'configuration', message: 'unknown problem' });
  return new RuntimeError({
    kind: first.kind,
    message: problems.map(locatedMessage).join('\n'),
    file: first.file,
    ...(first.line === undefined ? {} : { line: first.line }),
  });
}

/** A path as shown in messages: relative to `cwd` when it lies below it, absolute otherwise. */
export function displayPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}
