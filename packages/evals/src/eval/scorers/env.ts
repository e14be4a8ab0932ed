import type { JsonSchema } from '@agent/protocol';
import type { AgentRunner } from '@agent/runtime';

/** What built-in scorers need beyond their spec. */
export interface ScorerEnv {
  /** The agent's own output schema (`schema` without one of its own, and no case schema). */
  agentSchema?: JsonSchema;
  /** Where a judge agent's relative path is taken from (the dataset's directory). */
  baseDir: string;
  /** The runner of a judge agent file (one per file, shared by the run, closed with it). */
  judge(agentFile: string): Promise<AgentRunner>;
}
