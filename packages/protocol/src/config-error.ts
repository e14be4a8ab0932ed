import { AgentError } from './agent-error.js';
import { describeValue } from './util/error-text.js';

/** The `code` of every configuration error. */
export const CONFIGURATION_ERROR_CODE = 'configuration';

/** Shown instead of a secret value. */
export const REDACTED = '[redacted]';

export interface ConfigErrorInit {
  /** The setting, as the user wrote it: `timeoutMs`, `toolOutput.maxChunks`, `--api`. */
  field: string;
  /** The value given (undefined when missing). Never a secret: pass `secret: true` instead. */
  value?: unknown;
  /** What is allowed, in words that finish "must be ...": `a positive integer`, `one of a, b`. */
  allowed: string;
  /** Where the setting was given, put first in the message: `createModelClient`, `MCP server "fs"`. */
  source?: string;
  /** The value is a secret: it is kept out of the error (`value` reads `[redacted]`). */
  secret?: boolean;
  /** A message of its own, when "field must be allowed, got value" reads badly. */
  message?: string;
  cause?: unknown;
}

/**
 * A setting that cannot work: which one (`field`), what was given (`value`, redacted when secret)
 * and what is allowed (`allowed`). One check often finds several problems: `problems` lists them
 * all, this one first, and the message names every one.
 */
export class ConfigError extends AgentError {
  override readonly name: string = 'ConfigError';
  readonly field: string;
  readonly value: unknown;
  readonly allowed: string;
  readonly #problems: readonly ConfigError[] | undefined;

  /** `problems` is for `ConfigError.of`; a single problem lists itself. */
  constructor(init: ConfigErrorInit, problems?: readonly ConfigError[]) {
    const value = init.secret === true ? REDACTED : init.value;
    const text = init.message ?? `${init.field} must be ${init.allowed}, got ${describeValue(value)}`;
    super(CONFIGURATION_ERROR_CODE, init.source === undefined ? text : `${init.source}: ${text}`, {
      cause: init.cause,
    });
    this.field = init.field;
    this.value = value;
    this.allowed = init.allowed;
    this.#problems = problems;
  }

  /** Every problem the check found, this one first (a private field: it stays out of JSON). */
  get problems(): readonly ConfigError[] {
    return this.#problems ?? [this];
  }

  /**
   * One error for several problems: the first problem's field, value and allowed, every
   * problem's message (after `heading`, when given), and all of them in `problems`.
   */
  static of(problems: readonly ConfigError[], heading?: string): ConfigError {
    const first = problems[0];
    if (first === undefined) throw new RangeError('ConfigError.of needs at least one problem');
    if (problems.length === 1 && heading === undefined) return first;
    const messages = problems.map((problem) => problem.message).join('; ');
    return new ConfigError(
      {
        field: first.field,
        value: first.value,
        allowed: first.allowed,
        message: heading === undefined ? messages : `${heading}: ${messages}`,
      },
      problems,
    );
  }
}
