/**
 * The tool calls one turn may still run (`maxToolCallsPerTurn`). Top-level calls and the calls
 * inside `agent__batch` draw from the same budget, so a batch cannot get round the limit.
 */
export class CallBudget {
  private used = 0;

  constructor(readonly limit: number | undefined) {}

  /** Takes one slot; false once the turn's limit is reached. */
  take(): boolean {
    if (this.limit === undefined) return true;
    if (this.used >= this.limit) return false;
    this.used++;
    return true;
  }

  /** What a refused call answers the model. */
  get refusal(): string {
    return `too many tool calls in one turn; at most ${this.limit} are run`;
  }
}
