import { resolve } from 'node:path';
import type { AgentResult } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { redactSecrets } from '@agent/providers';
import type { ResumeOptions, RunAgentFileOptions } from '../api.js';
import { resolveConfig } from '../config/layers.js';
import { configurationFailure } from '../runner/run-outcomes.js';
import { createAgentRunner } from '../runner/runner.js';
import { RunnerSessions } from './runner-sessions.js';

/**
 * Continues a stored session from a fresh process (`agent resume`): finds it in the session
 * store of the configuration around `cwd` (`--config`, the cwd's `agent.json`, the user's and
 * the system's), loads the agent file it was started from (or `agentFile`), resumes it with the
 * decisions given and releases everything. Never throws: an unknown session, a store that is
 * down or a file that no longer loads end with `EXIT-CONFIGURATION` saying so.
 */
export async function resumeStoredSession(
  sessionId: string,
  options: RunAgentFileOptions & Pick<ResumeOptions, 'approvals'> & { agentFile?: string } = {},
): Promise<AgentResult> {
  const { approvals, agentFile, ...runOptions } = options;
  const cwd = resolve(options.cwd ?? process.cwd());
  let file = agentFile === undefined ? undefined : resolve(cwd, agentFile);
  if (file === undefined) {
    let sessions: RunnerSessions | undefined;
    try {
      const config = resolveConfig({ ...options, cwd });
      sessions = new RunnerSessions(config, '');
      const store = await sessions.store();
      const snapshot = await store.load(sessionId);
      if (snapshot === undefined) {
        return configurationFailure(
          `no session ${JSON.stringify(sessionId)} in the session store ${store.location} (never stored, or expired: a finished session is kept for sessions.ttl, an unfinished one at least 30 days)`,
          options,
        );
      }
      file = snapshot.labels?.agentFile;
      if (file === undefined) {
        return configurationFailure(
          `session ${sessionId} does not say which agent file started it: name it with --agent FILE`,
          options,
        );
      }
    } catch (error) {
      return configurationFailure(
        redactSecrets(`cannot resume session ${JSON.stringify(sessionId)}: ${errorMessage(error)}`),
        options,
      );
    } finally {
      await sessions?.close();
    }
  }
  let runner: Awaited<ReturnType<typeof createAgentRunner>>;
  try {
    runner = await createAgentRunner(file, { ...runOptions, cwd });
  } catch (error) {
    return configurationFailure(redactSecrets(errorMessage(error)), options);
  }
  try {
    return await runner.resume(sessionId, {
      ...runOptions,
      ...(approvals === undefined ? {} : { approvals }),
    });
  } finally {
    await runner.close().catch(() => undefined);
  }
}
