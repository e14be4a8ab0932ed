import { AgentError } from '@agent/protocol';

/** A remote A2A agent that cannot be used: its card cannot be read or makes no sense (code `a2a`). */
export class A2aError extends AgentError {
  override readonly name = 'A2aError';

  constructor(message: string, options?: { cause?: unknown }) {
    super('a2a', message, options);
  }
}
