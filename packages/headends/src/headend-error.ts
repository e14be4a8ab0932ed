import { AgentError } from '@agent/protocol';

/** The `code`s of a `HeadendError`. */
export type HeadendErrorCode =
  /** Slack's Web API answered without something it always sends (`auth.test`'s user id, a message ts). */
  | 'slack_unexpected_answer'
  /** Asking an MCP client for an approval failed (not a timeout, which is a denial). */
  | 'approval_failed'
  /** The client went away while its request waited for a session slot. */
  | 'client_gone'
  /** An SSE event name with a line break (it would end the event early). */
  | 'invalid_sse_event';

/** Something a headend depends on answered in a way it cannot go on from. */
export class HeadendError extends AgentError {
  override readonly name = 'HeadendError';
  declare readonly code: HeadendErrorCode;

  constructor(code: HeadendErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
