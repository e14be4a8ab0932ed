import type { RequestAdditions } from './request-tokens.js';

// Messages between the suite (parent) and its two kinds of child process.

/** Parent -> model server process. */
export type ServerCommand =
  | { type: 'release'; phase: string }
  /** Start (or stop and report) counting what each request adds, in tokens. */
  | { type: 'tokens-start' }
  | { type: 'tokens-stop' };
/** Model server process -> parent. */
export type ServerMessage =
  | { type: 'listening'; url: string }
  | { type: 'held'; phase: string; count: number }
  | { type: 'tokens-started' }
  /** The additions of every request since `tokens-start`, in arrival order. */
  | { type: 'tokens'; requests: RequestAdditions[] };

/** Parent -> contender process; each gets exactly one reply with the same `id`. */
export type ContenderCommand =
  | { id: number; type: 'cpu'; turns: number; sessions: number; runs: number; warmup: number }
  | { id: number; type: 'memory-start'; turns: number; count: number; phase: string; warmup: number }
  | { id: number; type: 'memory-sample' }
  | { id: number; type: 'memory-finish' }
  | { id: number; type: 'exit' };

/** One measured run of the CPU phase: `sessions` sessions one after the other. */
export interface CpuRun {
  sessions: number;
  /** Model calls made: (turns + 1) per session. */
  modelCalls: number;
  /** Process CPU (user + system) over the run, ms. */
  cpuMs: number;
  /** Wall time of the whole run, ms. */
  wallMs: number;
  events: number;
}

export interface MemorySample {
  heapUsed: number;
  rss: number;
}

export interface SessionFailures {
  /** Sessions that threw or returned another answer. */
  failed: number;
  /** The first problem seen, for the check's detail. */
  first?: string;
}

export type ContenderReply =
  | { id: number; type: 'ready' }
  | {
      id: number;
      type: 'cpu';
      runs: CpuRun[];
      failures: SessionFailures;
      lastAnswer: string;
      /** The measured runs, in the monotonic microseconds `--cpu-prof` timestamps use. */
      windowUs: [number, number];
      /** Process warnings emitted so far (kept out of the bench output). */
      warnings: string[];
    }
  | { id: number; type: 'memory-start'; baseline: MemorySample }
  | { id: number; type: 'memory-sample'; sample: MemorySample }
  | {
      id: number;
      type: 'memory-finish';
      completed: number;
      failures: SessionFailures;
      lastAnswer: string;
      warnings: string[];
    }
  | { id: number; type: 'error'; message: string };
