import type { AgentResult } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { redactSecrets } from '@agent/providers';
import type { RunAgentFileOptions, RunInput } from '../api.js';
import { configurationFailure } from './run-outcomes.js';
import { createAgentRunner } from './runner.js';

/**
 * Loads an agent file (and its sub-agents and config), runs it once on `input` (a prompt, or
 * `{ prompt, history }`), and
 * releases everything. Never throws: a file or config that cannot load gives `success: false`,
 * `exitCode: 'EXIT-CONFIGURATION'` and an `error` naming the file and line.
 */
export async function runAgentFile(
  path: string,
  input: RunInput,
  options: RunAgentFileOptions = {},
): Promise<AgentResult> {
  let runner: Awaited<ReturnType<typeof createAgentRunner>>;
  try {
    runner = await createAgentRunner(path, options);
  } catch (error) {
    return configurationFailure(redactSecrets(errorMessage(error)), options);
  }
  try {
    return await runner.run(input, options);
  } finally {
    await runner.close().catch(() => undefined);
  }
}
