import type { SnapshotKeySettings } from '@agent/cache';
import type { AgentEvent, AgentEventMeta, AgentResult, JsonSchema, OutputFormat } from '@agent/protocol';
import type { RunJobData } from './job.js';
import type { WorkerSessionStore } from './worker-store.js';

/** Per-run options a worker passes to an agent (an `AgentRunner` of `@agent/runtime` fits). */
export interface QueueRunOptions {
  format?: OutputFormat;
  schema?: JsonSchema;
  headendId?: string;
  /** The face's W3C `traceparent` (docs/observability.md). */
  traceparent?: string;
  onEvent?: (event: AgentEvent, meta: AgentEventMeta) => void;
  signal?: AbortSignal;
}

/** One agent a worker runs; its runs must checkpoint into `worker.sessionStore`. */
export interface QueueAgent {
  run(
    input: RunJobData['input'],
    options: QueueRunOptions & { sessionId: string; durable: true; owner?: string; conversationId?: string },
  ): Promise<AgentResult>;
  resume(
    sessionId: string,
    options: QueueRunOptions & { approvals?: NonNullable<RunJobData['resume']>['approvals'] },
  ): Promise<AgentResult>;
}

export interface RunWorkerOptions {
  url: string;
  /** The snapshot keys of the fleet's session store (agent.json's `sessions`); default AGENT_SNAPSHOT_KEY, else the key file. */
  keySettings?: SnapshotKeySettings;
  name?: string;
  /** Jobs this worker runs at once (default 4). */
  concurrency?: number;
  /** Fleet-wide cap of sessions at once per model provider, e.g. `{ openai: 8 }`. */
  providerCaps?: Readonly<Record<string, number>>;
  /**
   * How long a job's lock lasts without renewal, ms (default 30000): a killed worker's job is
   * taken over by another between one and two of these after its death.
   */
  lockMs?: number;
  /** How many times one job may move to another worker before it fails (default 5). */
  maxMoves?: number;
  /** How long the job's event stream and result stay readable after the run, s (default 3600). */
  resultTtlSeconds?: number;
  /** This worker's name in `moved` notices (default host:pid). */
  workerId?: string;
  /** Lines for the operator (the app writes them to stderr). */
  onLog?: (line: string) => void;
}

/** One agent a worker runs, with the providers of every model its runs may call (for the caps). */
export interface WorkerAgent {
  agent: QueueAgent;
  providers?: readonly string[];
}

/** What a worker is given to run: its agents by name. */
export interface WorkerAgents {
  get(name: string): WorkerAgent | undefined;
  /**
   * The agent files this worker could not load, one `file: why` each (secrets removed): a job
   * this worker cannot run fails once, saying them, instead of waiting for a worker that can.
   */
  loadFailures?: readonly string[];
}

export interface RunWorker {
  readonly id: string;
  /** The shared Redis session store; give it to the agents' runners (`sessionStore`). */
  readonly sessionStore: WorkerSessionStore;
  /** Starts taking jobs. */
  start(agents: WorkerAgents): void;
  /** Sessions running now. */
  readonly running: number;
  /**
   * Stops taking jobs; lets running sessions finish for `drainMs`, then hands the rest back to
   * the queue at their last checkpoint (another worker resumes them) and closes everything.
   */
  stop(drainMs?: number): Promise<void>;
}
