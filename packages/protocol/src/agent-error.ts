/**
 * The brand every error of the project carries. A registered symbol (`Symbol.for`), so an error
 * made by another copy of a package (two bundles, two versions), or by a package that imports
 * nothing (`@agent/xml-transport` sets the same symbol itself), is still recognised.
 */
export const AGENT_ERROR_BRAND: unique symbol = Symbol.for('@agent/error');

/**
 * The base of every error the `@agent/*` packages throw. `code` says what went wrong in a word
 * a program can switch on (`configuration`, `model_call_failed`, ...); the message says it to a
 * person. Check with `AgentError.is(error)` rather than `instanceof`: it works across copies.
 */
export class AgentError extends Error {
  declare readonly [AGENT_ERROR_BRAND]: true;
  override readonly name: string = 'AgentError';
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }

  /** True for an error of this project, from any copy of any package; with `code`, only that code. */
  static is(value: unknown, code?: string): value is AgentError {
    if (typeof value !== 'object' || value === null) return false;
    const branded = value as { [AGENT_ERROR_BRAND]?: unknown; code?: unknown };
    if (branded[AGENT_ERROR_BRAND] !== true || typeof branded.code !== 'string') return false;
    return code === undefined || branded.code === code;
  }
}

// On the prototype, not each instance: subclasses inherit it and it never shows in spreads or logs.
Object.defineProperty(AgentError.prototype, AGENT_ERROR_BRAND, { value: true });
