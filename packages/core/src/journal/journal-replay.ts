import {
  BATCH_TOOL,
  type JournaledAnswer,
  type JournaledToolOutcome,
  type ModelTarget,
  type SessionSnapshot,
  type ToolCall,
} from '@agent/protocol';
import { isRecord } from '@agent/protocol/util';
import type { SessionRecorder } from '../observe/recorder.js';
import type { RawToolOutcome } from '../tools/call-runner.js';
import { readBatchCalls } from '../tools/internal-tools.js';
import { JournalAnswerClient } from './journal-answer-client.js';
import { answerProblem, outcomeProblem } from './journal-entry-check.js';

/**
 * What a resumed session replays of its turn journal (`resumeJournal`): the entries of the turn
 * its snapshot continues with (the snapshot's next turn; the paused turn itself for a snapshot
 * awaiting approval) and of its session. The turn's first attempts take the journaled answers in
 * order instead of calling a model; the calls of a replayed answer whose outcome is journaled
 * take that outcome instead of running. An entry of another session or turn, malformed, or an
 * outcome of a call no journaled answer made, is left out with a `WRN agent:journal` line:
 * a journal is never trusted blindly.
 */
export class JournalReplay {
  private readonly answers: JournaledAnswer[] = [];
  private readonly outcomes = new Map<string, JournaledToolOutcome>();
  /** The answer being acted on came from the journal: its calls may take journaled outcomes. */
  private serving: boolean;

  private constructor(
    readonly turn: number,
    private readonly sessionId: string,
    private readonly recorder: SessionRecorder,
    pausedCalls: readonly ToolCall[] | undefined,
  ) {
    this.serving = pausedCalls !== undefined;
    for (const call of pausedCalls ?? []) this.know(call);
  }

  /** The calls of the journaled answers (and of a paused turn), by id, with their tool: an outcome must name one. */
  private readonly known = new Map<string, string>();

  /** The replay of `entries` for a session resumed from `snapshot`; undefined when nothing is left to replay. */
  static of(
    entries: readonly unknown[],
    snapshot: SessionSnapshot,
    sessionId: string,
    recorder: SessionRecorder,
  ): JournalReplay | undefined {
    const paused = snapshot.status === 'awaiting_approval';
    const replay = new JournalReplay(
      paused ? snapshot.turn : snapshot.turn + 1,
      sessionId,
      recorder,
      paused ? (snapshot.turnCalls ?? []) : undefined,
    );
    entries.forEach((entry, index) => {
      replay.take(entry, index);
    });
    if (replay.answers.length === 0 && replay.outcomes.size === 0) return undefined;
    return replay;
  }

  /**
   * The journaled answer for the next attempt of `turn`, if one is left. When none is, the model
   * is asked, and that answer's calls run (their journaled outcomes, if any, were of another answer).
   */
  nextAnswer(turn: number): JournaledAnswer | undefined {
    if (turn !== this.turn) return undefined;
    const answer = this.answers.shift();
    this.serving = answer !== undefined;
    return answer;
  }

  /** The journaled outcome of the call `callId` of `turn`, taken once, as the call's raw outcome. */
  outcome(turn: number, callId: string): RawToolOutcome | undefined {
    if (!this.serving || turn !== this.turn) return undefined;
    const entry = this.outcomes.get(callId);
    if (entry === undefined) return undefined;
    this.outcomes.delete(callId);
    const outcome: RawToolOutcome = { ok: entry.ok, text: entry.text, replayed: true };
    if (entry.error !== undefined) outcome.error = entry.error;
    if (entry.structured !== undefined) outcome.structured = entry.structured;
    if (entry.ok && entry.endSession !== undefined) outcome.endSession = entry.endSession;
    return outcome;
  }

  private take(entry: unknown, index: number): void {
    const problem = this.problemOf(entry);
    if (problem !== undefined) {
      this.recorder.log({
        severity: 'WRN',
        direction: 'response',
        type: 'llm',
        remoteIdentifier: 'agent:journal',
        message: `turn journal entry ${index} is not replayed: ${problem}`,
      });
      return;
    }
    if ((entry as JournaledAnswer).kind === 'answer') {
      const answer = entry as JournaledAnswer;
      this.answers.push(answer);
      for (const call of answer.message.toolCalls ?? []) this.know(call);
    } else {
      const outcome = entry as JournaledToolOutcome;
      this.outcomes.set(outcome.callId, outcome);
    }
  }

  private problemOf(entry: unknown): string | undefined {
    if (!isRecord(entry)) return 'not a journal entry object';
    if (entry.sessionId !== this.sessionId)
      return `it is of session ${JSON.stringify(entry.sessionId)}, not ${this.sessionId}`;
    if (entry.turn !== this.turn)
      return `it is of turn ${JSON.stringify(entry.turn)}; the snapshot continues with turn ${this.turn}`;
    if (entry.kind === 'answer') return answerProblem(entry);
    if (entry.kind !== 'tool_outcome')
      return `its kind ${JSON.stringify(entry.kind)} is neither "answer" nor "tool_outcome"`;
    const shape = outcomeProblem(entry);
    if (shape !== undefined) return shape;
    const callId = entry.callId as string;
    if (this.outcomes.has(callId)) return `call ${callId} has an outcome already`;
    const tool = this.known.get(callId);
    if (tool === undefined) return `no journaled answer before it made the call ${callId}`;
    if (tool !== entry.tool) return `call ${callId} is a call of ${tool}, not of ${String(entry.tool)}`;
    return undefined;
  }

  /** A call an answer made, and each call inside it when it is an `agent__batch` (`<batch id>:<inner id>`). */
  private know(call: ToolCall): void {
    this.known.set(call.id, call.name);
    if (call.name !== BATCH_TOOL) return;
    const inner = readBatchCalls(call.arguments);
    if (typeof inner === 'string') return;
    for (const part of inner) this.known.set(`${call.id}:${part.id}`, part.tool);
  }
}

/**
 * The target an attempt of `turn` calls: a journaled answer's replay while the replay has one
 * for it (the recorder then marks the answer's text `journal`), else `live`.
 */
export function attemptTarget(
  replay: JournalReplay,
  turn: number,
  live: ModelTarget,
  recorder: SessionRecorder,
): ModelTarget {
  const answer = replay.nextAnswer(turn);
  if (answer === undefined) return live;
  recorder.replaying = true;
  recorder.line(
    'VRB',
    'request',
    'llm',
    'agent:journal',
    `turn ${turn}: the answer is replayed from the turn journal; no model is called`,
  );
  return { ...live, client: new JournalAnswerClient(answer, live.client) };
}
