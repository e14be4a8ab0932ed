import { AgentError } from '@agent/protocol';

/**
 * A dataset, a scorer, a results file or an option of `evaluate` that cannot be used: the
 * message names the file, the line or case, and what is allowed. Thrown before any case runs.
 */
export class EvalInputError extends AgentError {
  override readonly name = 'EvalInputError';

  constructor(message: string, options?: { cause?: unknown }) {
    super('eval_input', message, options);
  }
}
