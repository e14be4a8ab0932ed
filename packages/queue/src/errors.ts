import { AgentError } from '@agent/protocol';

/** The code of every `QueueError`. */
export const QUEUE_ERROR_CODE = 'queue';

/** The run queue could not do what was asked (Redis unreachable, a job lost); the message says which. */
export class QueueError extends AgentError {
  override readonly name = 'QueueError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(QUEUE_ERROR_CODE, message, options);
  }
}
