import { AgentError } from '@agent/protocol';

/** The `code` of a `StoreError`. */
export const STORE_ERROR_CODE = 'tool_output_store';

/**
 * The tool-output store could not do what it was asked: it was released (the session is ending),
 * a handle it cannot take, no free session directory name.
 */
export class StoreError extends AgentError {
  override readonly name = 'StoreError';

  constructor(message: string) {
    super(STORE_ERROR_CODE, message);
  }
}
