import { fileURLToPath } from 'node:url';
import { type ChildProcessCalls, forkChild } from '../harness/child-process.js';
import type { ContenderCommand, ContenderReply } from './ipc.js';
import { BENCH_DIR, CONTENDER_NODE_FLAGS } from './paths.js';

const CONTENDER_SCRIPT = fileURLToPath(new URL('./contender-process.ts', import.meta.url));

/** A contender running in a fresh child process. */
export type ContenderProcess = ChildProcessCalls<ContenderCommand, ContenderReply>;

export function startContender(
  contenderId: string,
  baseURL: string,
  extraNodeFlags: readonly string[] = [],
): Promise<ContenderProcess> {
  return forkChild(CONTENDER_SCRIPT, [contenderId, baseURL], {
    label: `agent-loop: ${contenderId}`,
    cwd: BENCH_DIR,
    execArgv: [...CONTENDER_NODE_FLAGS, ...extraNodeFlags],
  });
}
