/** What one session of a contender hands back. */
export interface SessionOutcome {
  /** The final answer as the contender returned it. */
  finalText: string;
  /** Streamed deltas/events the contender surfaced to its caller during the session. */
  events: number;
}

/** Runs one whole session (prompt to final answer) against the model server. */
export type SessionRunner = (prompt: string, turns: number) => Promise<SessionOutcome>;

/** One framework under test, set up once per process against the server's `/v1` base URL. */
export type ContenderFactory = (baseURL: string) => SessionRunner | Promise<SessionRunner>;
