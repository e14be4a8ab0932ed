// The effects soak's verdicts beside the API's counts: per streaming protocol, which clients
// got their whole report exactly once; and where the kills landed (during a tool call, during a
// report's stream).
import type { ModelRequestSeen } from '../queue-soak/fleet.js';
import type { Kill } from '../queue-soak/random-killer.js';
import type { EffectRequest } from './effects-api.js';
import { STREAM_CLIENTS, type StreamClient, type StreamOutcome } from './stream-clients.js';

export interface StreamVerdict {
  client: StreamClient;
  sessions: number;
  /** The stream ended as an answer. */
  answered: number;
  /** Answered, its text exactly the report, nothing retracted or errored. */
  exactlyOnce: number;
  /** Received more text than the report (a part twice), less (a part missing), or a different text of the same length. */
  duplicated: number;
  missing: number;
  different: number;
  /** Told to take text back (REST `output_retracted`) or ended with an error after text. */
  retracted: number;
  moved: number;
}

export function streamVerdicts(
  outcomes: readonly StreamOutcome[],
  expected: (session: string) => string,
): StreamVerdict[] {
  return STREAM_CLIENTS.map((client) => {
    const mine = outcomes.filter((o) => o.client === client);
    const verdict: StreamVerdict = {
      client,
      sessions: mine.length,
      answered: 0,
      exactlyOnce: 0,
      duplicated: 0,
      missing: 0,
      different: 0,
      retracted: 0,
      moved: 0,
    };
    for (const outcome of mine) {
      const report = expected(outcome.session);
      const retracted = outcome.retractions > 0 || outcome.errors.length > 0;
      if (outcome.answered) verdict.answered += 1;
      if (outcome.answered && !retracted && outcome.text === report) verdict.exactlyOnce += 1;
      if (outcome.text.length > report.length) verdict.duplicated += 1;
      else if (outcome.text.length < report.length) verdict.missing += 1;
      else if (outcome.text !== report) verdict.different += 1;
      if (retracted) verdict.retracted += 1;
      if (outcome.moved) verdict.moved += 1;
    }
    return verdict;
  });
}

export interface KillLanding {
  /** Kills of a worker with a call at the API in flight (received, not yet answered). */
  duringToolCall: number;
  /** Kills of a worker the model was streaming a report to (a last-turn request within `streamMs`). */
  duringReport: number;
}

export function killLandings(
  kills: readonly Kill[],
  calls: readonly EffectRequest[],
  modelRequests: readonly ModelRequestSeen[],
  reportTurn: number,
  streamMs: number,
): KillLanding {
  let duringToolCall = 0;
  let duringReport = 0;
  for (const kill of kills) {
    const inCall = calls.some(
      (c) =>
        c.worker === kill.worker &&
        c.receivedAt <= kill.at &&
        (c.answeredAt ?? Number.POSITIVE_INFINITY) > kill.at,
    );
    const inReport = modelRequests.some(
      (r) =>
        r.worker === kill.worker && r.turn === reportTurn && r.at <= kill.at && kill.at <= r.at + streamMs,
    );
    if (inCall) duringToolCall += 1;
    if (inReport) duringReport += 1;
  }
  return { duringToolCall, duringReport };
}
