import type { AgentEvent, AgentEventMeta } from '@agent/protocol';
import {
  applyStatusEvent,
  newStatusState,
  renderStatus,
  type StatusState,
  type StatusWriter,
} from './status-line.js';

/** Wide enough that a per-turn line is never cut (it is a log line, not a terminal row). */
const LINE_COLUMNS = 400;

/**
 * `--progress` on a stream that is not a terminal: one line per turn of the top agent, written
 * when the turn is over (the next one starts or the run ends), with the run's totals so far.
 */
export class ProgressLines {
  readonly state: StatusState;
  private readonly now: () => number;
  private printedTurn = 0;

  constructor(
    private readonly out: StatusWriter,
    now: () => number = Date.now,
  ) {
    this.now = now;
    this.state = newStatusState(now());
  }

  onEvent(event: AgentEvent, meta: AgentEventMeta): void {
    // The finished turn's line goes out before the state moves on to the next turn.
    if (event.type === 'turn_started' && meta.isMaster) this.printTurn();
    applyStatusEvent(this.state, event, meta);
  }

  /** The line of the turn in progress, once (the run is over). */
  finish(): void {
    this.printTurn();
  }

  private printTurn(): void {
    if (this.state.turn === 0 || this.state.turn === this.printedTurn) return;
    this.printedTurn = this.state.turn;
    this.out.write(`agent: ${renderStatus(this.state, this.now(), LINE_COLUMNS)}\n`);
  }
}
