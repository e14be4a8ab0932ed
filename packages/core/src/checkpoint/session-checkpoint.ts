import {
  type AgentResult,
  type SavedToolOutput,
  SESSION_SNAPSHOT_VERSION,
  type SessionSnapshot,
  type SessionSnapshotStatus,
} from '@agent/protocol';
import type { TokenEstimator } from '../context/token-estimator.js';
import type { PausedTurn, SessionState } from '../loop/session-state.js';
import type { TargetRotation } from '../loop/target-rotation.js';
import type { OpTreeBuilder } from '../observe/op-tree.js';
import type { SessionRecorder } from '../observe/recorder.js';

/** The live parts of a session a snapshot is taken from and restored into. */
export interface CheckpointParts {
  sessionId: string;
  agent: string;
  settingsHash: string;
  nonce: string;
  state: SessionState;
  rotation: TargetRotation;
  estimator: TokenEstimator;
  recorder: SessionRecorder;
  opTree: OpTreeBuilder;
  now: () => number;
  /** The tool-output store's outputs, added to each delivered snapshot. */
  toolOutputs?: () => Promise<SavedToolOutput[]>;
}

/**
 * The session as plain JSON, deep-copied (the session goes on changing after it is handed out).
 * Built only when someone asked for checkpoints.
 */
export function takeSnapshot(
  parts: CheckpointParts,
  status: SessionSnapshotStatus,
  extra: { paused?: PausedTurn; result?: AgentResult } = {},
): SessionSnapshot {
  const { state } = parts;
  const snapshot: SessionSnapshot = {
    version: SESSION_SNAPSHOT_VERSION,
    sessionId: parts.sessionId,
    agent: parts.agent,
    settingsHash: parts.settingsHash,
    status,
    takenAt: parts.now(),
    turn: state.turn,
    nonce: parts.nonce,
    conversation: state.conversation,
    loop: {
      ...(state.forcedFinal === undefined ? {} : { forcedFinal: state.forcedFinal }),
      finalReportFailedEver: state.finalReportFailedEver,
      finalReportAttempts: state.finalReportAttempts,
      taskStatusOnlyTurns: state.taskStatusOnlyTurns,
      ...(state.lastStopReason === undefined ? {} : { lastStopReason: String(state.lastStopReason) }),
      ...(state.lastRejected === undefined ? {} : { lastRejected: state.lastRejected }),
      ...(state.lastParsed === undefined ? {} : { lastParsed: state.lastParsed }),
      ...(state.compaction === undefined ? {} : { compaction: state.compaction }),
      ...(state.toolSearch === undefined ? {} : { toolSearch: state.toolSearch }),
    },
    droppedTargets: parts.rotation.droppedReasons(),
    // A finished session is never resumed: the correction its requests used, counting nothing more.
    tokenCorrection:
      status === 'finished' ? parts.estimator.appliedCorrection : parts.estimator.correctionFactor,
    accounting: parts.recorder.accounting,
    opTree: extra.result?.opTree ?? parts.opTree.root,
    ...(extra.paused === undefined
      ? {}
      : {
          turnCalls: extra.paused.turnCalls,
          pending: extra.paused.pending,
          decisions: extra.paused.decisions,
          ...(extra.paused.children === undefined ? {} : { children: extra.paused.children }),
        }),
    ...(extra.result === undefined
      ? {}
      : {
          exitCode: extra.result.exitCode,
          ...(extra.result.finalReport === undefined ? {} : { finalReport: extra.result.finalReport }),
        }),
  };
  return structuredClone(snapshot);
}

/** Puts a snapshot's state back into a new session's parts (its conversation is pushed by the caller). */
export function restoreSnapshot(snapshot: SessionSnapshot, parts: Omit<CheckpointParts, 'opTree'>): void {
  const { state } = parts;
  const loop = snapshot.loop;
  state.turn = snapshot.turn;
  state.forcedFinal = loop.forcedFinal;
  state.finalReportFailedEver = loop.finalReportFailedEver === true;
  state.finalReportAttempts = loop.finalReportAttempts ?? 0;
  state.taskStatusOnlyTurns = loop.taskStatusOnlyTurns ?? 0;
  state.lastStopReason = loop.lastStopReason;
  state.lastRejected = loop.lastRejected;
  state.lastParsed = loop.lastParsed;
  state.compaction = loop.compaction;
  state.toolSearch = loop.toolSearch;
  parts.rotation.restoreDrops(snapshot.droppedTargets);
  parts.estimator.restoreCorrection(snapshot.tokenCorrection);
  parts.recorder.restoreAccounting(snapshot.accounting);
  parts.recorder.turn = snapshot.turn;
}
