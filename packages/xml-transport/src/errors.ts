/** What was wrong with the input given to this package. */
export type XmlTransportErrorCode = 'invalid_nonce' | 'invalid_option' | 'parser_ended' | 'parser_not_ended';

/**
 * Thrown for programming errors only (bad options, misuse of the parser); never for model output.
 * It carries the project's error brand (the registered symbol `@agent/error`, set here because this
 * package imports nothing), so `AgentError.is(error, 'invalid_nonce')` from `@agent/protocol`
 * recognises it.
 */
export class XmlTransportError extends Error {
  override readonly name = 'XmlTransportError';
  readonly code: XmlTransportErrorCode;
  /**
   * For `invalid_option`: the option, the value given and what is allowed, the same fields a
   * `ConfigError` of `@agent/protocol` carries (this package imports nothing, so it is not one).
   */
  readonly field?: string;
  readonly value?: unknown;
  readonly allowed?: string;

  constructor(code: XmlTransportErrorCode, message: string, option?: XmlOptionProblem) {
    super(message);
    this.code = code;
    if (option !== undefined) {
      this.field = option.field;
      this.value = option.value;
      this.allowed = option.allowed;
    }
  }
}

/** The bad option of an `invalid_option` error: `{ field, value, allowed }` like a `ConfigError`. */
export interface XmlOptionProblem {
  field: string;
  value: unknown;
  allowed: string;
}

Object.defineProperty(XmlTransportError.prototype, Symbol.for('@agent/error'), { value: true });

/** Throws `invalid_option` unless a parser's `push()` was given a string. */
export function assertChunk(chunk: unknown): asserts chunk is string {
  if (typeof chunk !== 'string') {
    throw new XmlTransportError('invalid_option', `push() expects a string, got ${typeof chunk}`, {
      field: 'chunk',
      value: chunk,
      allowed: 'a string',
    });
  }
}
