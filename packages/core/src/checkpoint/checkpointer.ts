import type { AgentResult, SessionSnapshot, SessionSnapshotStatus } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { type CheckpointParts, type PausedTurn, takeSnapshot } from './session-checkpoint.js';

/** Receives each snapshot; the session waits for it before the next turn (a store write is durable then). */
export type CheckpointListener = (snapshot: SessionSnapshot) => void | Promise<void>;

/**
 * Hands a snapshot to the listener at every turn boundary, when the session pauses and when it
 * ends. A listener that fails is logged (`agent:checkpoint`) and the session goes on: losing a
 * checkpoint costs a resume point, not the run. A pause reports it in the result instead.
 */
export class Checkpointer {
  constructor(
    private readonly parts: CheckpointParts,
    private readonly listener: CheckpointListener,
  ) {}

  turnEnded(): Promise<boolean> {
    return this.deliver('running');
  }

  paused(paused: PausedTurn): Promise<boolean> {
    return this.deliver('awaiting_approval', { paused });
  }

  finished(result: AgentResult): Promise<boolean> {
    return this.deliver('finished', { result });
  }

  /** The problem of the last failed delivery, if the last one failed. */
  lastError: string | undefined;

  private async deliver(
    status: SessionSnapshotStatus,
    extra?: { paused?: PausedTurn; result?: AgentResult },
  ): Promise<boolean> {
    try {
      await this.listener(takeSnapshot(this.parts, status, extra));
      this.lastError = undefined;
      return true;
    } catch (error) {
      this.lastError = errorMessage(error);
      this.parts.recorder.log({
        severity: 'WRN',
        direction: 'response',
        type: 'llm',
        remoteIdentifier: 'agent:checkpoint',
        message: `storing the ${status} checkpoint failed: ${this.lastError}`,
      });
      return false;
    }
  }
}
