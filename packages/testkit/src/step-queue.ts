import { AgentError } from '@agent/protocol';
import type { RecordedRequest, ScriptedAnswer, ScriptStep } from './steps.js';

/** Thrown (in-process) or answered with HTTP 500 (server) for a call no step was planned for. */
export class UnplannedCallError extends AgentError {
  override readonly name = 'UnplannedCallError';

  constructor(message: string) {
    super('unplanned_call', message);
  }
}

/**
 * Steps consumed in order, one per call, shared by every API of a model or server. Counts
 * calls, resolves function steps against the request, and says loudly when the script ran out
 * or was not used up.
 */
export class StepQueue {
  readonly #steps: ScriptStep[];
  readonly #owner: string;
  #next = 0;
  #calls = 0;

  constructor(owner: string, steps: readonly ScriptStep[]) {
    this.#owner = owner;
    this.#steps = [...steps];
  }

  /** Calls taken so far, the unplanned ones included. */
  get calls(): number {
    return this.#calls;
  }

  /** Steps planned and not used yet. */
  get remaining(): number {
    return this.#steps.length - this.#next;
  }

  push(...steps: ScriptStep[]): void {
    this.#steps.push(...steps);
  }

  /** Takes a call: returns its number (1-based) and the step's answer, or throws `UnplannedCallError`. */
  async take(request: RecordedRequest): Promise<{ callNumber: number; answer: ScriptedAnswer }> {
    this.#calls += 1;
    const callNumber = this.#calls;
    const step = this.#steps[this.#next];
    if (step === undefined) {
      const planned = this.#steps.length;
      throw new UnplannedCallError(
        `${this.#owner}: call #${callNumber} was not planned (only ${planned} step${planned === 1 ? '' : 's'})`,
      );
    }
    this.#next += 1;
    const answer = typeof step === 'function' ? await step(request) : step;
    return { callNumber, answer };
  }

  /** Throws when planned steps were left unused, naming how many. */
  assertAllConsumed(): void {
    const left = this.remaining;
    if (left === 0) return;
    throw new AgentError(
      'steps_left',
      `${this.#owner}: ${left} of ${this.#steps.length} planned step${this.#steps.length === 1 ? '' : 's'} ` +
        `${left === 1 ? 'was' : 'were'} not used (next unused is step #${this.#next + 1}; ${this.#calls} call${this.#calls === 1 ? '' : 's'} made)`,
    );
  }
}
