import { isAbsolute, relative } from 'node:path';
import { AgentError } from '@agent/protocol';
import type { RuntimeErrorInit, RuntimeErrorKind, SettingProblem, ValidationProblem } from './api.js';

/**
 * Why the runtime could not load or start an agent (never a model's failure). Its `code` is its
 * `kind` (`configuration`, `not_found`, `agent_tree`). The message starts with `file:line:` when
 * both are known, so a caller that prints `file:line: message` can tell it is already located.
 * A `configuration` error about one setting also carries `field`, `value` (secrets redacted) and
 * `allowed`, the fields of a `ConfigError`.
 */
export class RuntimeError extends AgentError {
  override readonly name = 'RuntimeError';
  readonly kind: RuntimeErrorKind;
  readonly file?: string;
  readonly line?: number;
  readonly field?: string;
  readonly value?: unknown;
  readonly allowed?: string;

  constructor(init: RuntimeErrorInit) {
    super(init.kind, init.message, { cause: init.cause });
    this.kind = init.kind;
    if (init.file !== undefined) this.file = init.file;
    if (init.line !== undefined) this.line = init.line;
    if (init.setting !== undefined) {
      this.field = init.setting.field;
      this.value = init.setting.value;
      this.allowed = init.setting.allowed;
    }
  }
}

/** One problem found while loading, with where it is; becomes a `ValidationProblem` or a `RuntimeError`. */
export interface Problem extends ValidationProblem {
  kind: RuntimeErrorKind;
  /** Set when the problem is one setting's value (not shown by `validate`; carried by the error). */
  setting?: SettingProblem;
}

export function problem(
  kind: RuntimeErrorKind,
  file: string,
  line: number | undefined,
  message: string,
  setting?: SettingProblem,
): Problem {
  const found: Problem = { kind, file, ...(line === undefined ? {} : { line }), message };
  // Not enumerable: problems are listed as they are (`validate --json`) and a value stays out of them.
  if (setting !== undefined) Object.defineProperty(found, 'setting', { value: setting });
  return found;
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
    ...(first.setting === undefined ? {} : { setting: first.setting }),
  });
}

/** A path as shown in messages: relative to `cwd` when it lies below it, absolute otherwise. */
export function displayPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}
