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

  constructor(code: XmlTransportErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

Object.defineProperty(XmlTransportError.prototype, Symbol.for('@agent/error'), { value: true });
