/** What was wrong with the input given to this package. */
export type XmlTransportErrorCode = 'invalid_nonce' | 'invalid_option' | 'parser_ended' | 'parser_not_ended';

/** Thrown for programming errors only (bad options, misuse of the parser); never for model output. */
export class XmlTransportError extends Error {
  override readonly name = 'XmlTransportError';
  readonly code: XmlTransportErrorCode;

  constructor(code: XmlTransportErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
