// Messages between the headend-load suite (parent), the served process and the load client.
import type { ChildReply } from '../harness/child-process.js';

/** Parent -> served process (a contender's server). */
export type ServedCommand =
  | { id: number; type: 'url' }
  /** Garbage-collects, takes the memory baseline, starts sampling the peak and counting CPU. */
  | { id: number; type: 'memory-start' }
  /** Stops sampling; replies with the peak growth over the baseline and the process CPU since the start. */
  | { id: number; type: 'memory-stop' }
  /** Waits until `count` sessions stream at once, garbage-collects and replies the heap over the baseline. */
  | { id: number; type: 'retained'; count: number }
  /** Replies the process's monotonic clock in microseconds (a `--cpu-prof` profile's time base). */
  | { id: number; type: 'mark' }
  | { id: number; type: 'exit' };

export type ServedReply =
  | ChildReply
  | { id: number; type: 'url'; url: string }
  | { id: number; type: 'memory-start' }
  | { id: number; type: 'mark'; atUs: number }
  /** `inFlight`: the sessions streaming when the heap was weighed; `reached`: all `count` of them. */
  | { id: number; type: 'retained'; heapGrowth: number; inFlight: number; reached: boolean }
  | { id: number; type: 'memory-stop'; peakHeapGrowth: number; peakRssGrowth: number; cpuMs: number };

/** Parent -> load client. */
export type ClientCommand =
  /** `concurrency` streaming chat completions at once against `url`, each checked for `expected`. */
  | { id: number; type: 'burst'; url: string; concurrency: number; expected: string }
  | { id: number; type: 'exit' };

export interface BurstOutcome {
  /** Wall ms of each completed, correct request (first byte sent to `[DONE]` read). */
  wallMs: number[];
  /** Completed with another status, no `[DONE]` or another text. */
  failed: number;
  /** Never completed: connection refused or reset, or over the request timeout. */
  lost: number;
  /** The first problem seen, for the check's detail. */
  firstProblem?: string;
}

export type ClientReply = ChildReply | ({ id: number; type: 'burst' } & BurstOutcome);
