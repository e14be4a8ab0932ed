import type { AgentResult, SessionSnapshot, SessionSnapshotStatus } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { type CheckpointParts, takeSnapshot } from './session-checkpoint.js';

/** Receives each snapshot; the session waits for it before the next turn (a store write is durable then). */
export type CheckpointListener = (snapshot: SessionSnapshot) => void | Promise<void>;

/**
 * Hands a snapshot to the listener at every turn boundary, when the session pauses and when it
 * ends, one at a time in the order they were taken, and sends it as a `snapshot` event first (the same object). A listener that fails is logged (`agent:checkpoint`) and the session goes on: losing a
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

  /** The paused session's snapshot (the one the result carries). */
  paused(snapshot: SessionSnapshot): Promise<boolean> {
    return this.send(snapshot, 'awaiting_approval');
  }

  finished(result: AgentResult): Promise<boolean> {
    return this.deliver('finished', { result });
  }

  /** The problem of the last failed delivery, if the last one failed. */
  lastError: string | undefined;

  private async deliver(status: SessionSnapshotStatus, extra?: { result?: AgentResult }): Promise<boolean> {
    return this.send(takeSnapshot(this.parts, status, extra), status);
  }

  /** The snapshot with the stored tool outputs; without them (and a WRN line) when they cannot be read. */
  private async withToolOutputs(snapshot: SessionSnapshot): Promise<SessionSnapshot> {
    if (this.parts.toolOutputs === undefined || snapshot.toolOutputs !== undefined) return snapshot;
    try {
      const outputs = await this.parts.toolOutputs();
      return outputs.length === 0 ? snapshot : { ...snapshot, toolOutputs: outputs };
    } catch (error) {
      this.parts.recorder.log({
        severity: 'WRN',
        direction: 'response',
        type: 'tool',
        remoteIdentifier: 'agent:tool-output',
        message: `the stored tool outputs are not in this checkpoint: ${errorMessage(error)}`,
      });
      return snapshot;
    }
  }

  /** The last delivery: each waits for the one before, so a store never gets an older snapshot last. */
  private tail: Promise<unknown> = Promise.resolve();

  private send(snapshot: SessionSnapshot, status: SessionSnapshotStatus): Promise<boolean> {
    const sent = this.tail.then(() => this.sendNow(snapshot, status));
    this.tail = sent;
    return sent;
  }

  private async sendNow(snapshot: SessionSnapshot, status: SessionSnapshotStatus): Promise<boolean> {
    const complete = await this.withToolOutputs(snapshot);
    this.parts.recorder.emit({ type: 'snapshot', payload: complete });
    try {
      await this.listener(complete);
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
