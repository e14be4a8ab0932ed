import type { AgentResult } from '@agent/protocol';
import type { SessionRequest } from '../session-run/session-request.js';

/** One agent of a chain to run, with what follows it. */
export interface ChainRequest extends SessionRequest {
  /**
   * The handoffs that run after this agent's chain (its caller's): how many, and the agent path
   * of the first, which takes this chain's report.
   */
  after?: { count: number; to: string };
  /** A destination or handoff: its events say whether handoffs follow even when none does. */
  inChain?: boolean;
}

/** Runs an agent with its orchestration (recursion goes through it). */
export type RunChain = (request: ChainRequest) => Promise<AgentResult>;
