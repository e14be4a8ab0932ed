/**
 * The agents a runtime chains around one agent, by name: what listings and headends show.
 * Advisors run before it, a router hands the request to one of `router`, `handoff` runs after.
 */
export interface OrchestrationSummary {
  /** Agents that run in parallel before it; their reports come before the prompt. */
  advisors: string[];
  /** Where it may hand the request (`router__handoff-to`), when it is a router. */
  router?: string[];
  /** The agent that runs on its answer; that agent's report is the final one. */
  handoff?: string;
}
