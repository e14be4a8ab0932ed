import { resolve } from 'node:path';
import {
  type AgentCatalog,
  createCatalog,
  type ServedAgent,
  type ServedResumeOptions,
  type ServedRunOptions,
} from '@agent/headends/http';
import type { RunJobData, RunQueue } from '@agent/queue';
import { type AgentRunner, createAgentRunner, type RunAgentFileOptions } from '@agent/runtime';

/** An `AgentRunner` as a headend's `ServedAgent` (its name is the agent's toolName). */
export function servedAgent(runner: AgentRunner): ServedAgent {
  const { summary } = runner;
  return {
    info: {
      name: summary.toolName,
      description: summary.description,
      outputFormat: summary.outputFormat,
      inputSchema: summary.inputSchema,
      outputSchema: summary.outputSchema,
      orchestration: summary.orchestration,
      ...(summary.usage === undefined ? {} : { usage: summary.usage }),
    },
    // `options.sessionId` (the A2A face's task id) becomes the new session's id.
    run: (prompt, options) => runner.run(prompt, options),
    // Paused runs are stored in agent.json's session store; the headends resume them from there.
    sessions: {
      find: (sessionId) => runner.storedSession(sessionId),
      resume: (sessionId, options) => runner.resume(sessionId, options),
    },
  };
}

export interface LoadedAgents {
  catalog: AgentCatalog;
  runners: AgentRunner[];
  close(): Promise<void>;
}

/** Loads every agent file once; the runners stay open for the server's life. */
export async function loadAgents(
  files: readonly string[],
  agentConfig?: string,
  extra: Pick<RunAgentFileOptions, 'sessionStore'> = {},
): Promise<LoadedAgents> {
  const runners: AgentRunner[] = [];
  try {
    for (const file of files) {
      runners.push(await createAgentRunner(resolve(file), { configPath: agentConfig, ...extra }));
    }
    return {
      catalog: createCatalog(runners.map(servedAgent)),
      runners,
      close: async () => {
        await Promise.allSettled(runners.map((runner) => runner.close()));
      },
    };
  } catch (error) {
    await Promise.allSettled(runners.map((runner) => runner.close()));
    throw error;
  }
}

/**
 * The same agents, each run enqueued on the shared run queue (`--queue redis://`) instead of run
 * here: the face keeps the client's connection and relays the worker's events and result. The
 * stored sessions are the fleet's (the face's runners read the queue's session store), and a
 * session resumed with approvals is enqueued too, as a job of its own. A cancel from any face
 * reaches the worker running the session.
 */
export function queuedCatalog(catalog: AgentCatalog, queue: RunQueue): AgentCatalog {
  const agents = catalog.list().map((info): ServedAgent => {
    const enqueue = (input: RunJobData['input'], options: ServedRunOptions, resume?: RunJobData['resume']) =>
      queue.submit(
        {
          agent: info.name,
          input,
          ...(options.format === undefined ? {} : { format: options.format }),
          ...(options.schema === undefined ? {} : { schema: options.schema }),
          ...(options.headendId === undefined ? {} : { headendId: options.headendId }),
          ...(options.traceparent === undefined ? {} : { traceparent: options.traceparent }),
          // The job carries whom the run is for; the worker stores it with the session.
          ...(options.owner === undefined ? {} : { owner: options.owner }),
          ...(options.conversationId === undefined ? {} : { conversationId: options.conversationId }),
          ...(resume === undefined ? {} : { resume }),
        },
        {
          // The job's id is the session's (the A2A face's task id): any face can cancel it by that id.
          ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
          ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        },
      );
    const stored = catalog.get(info.name)?.sessions;
    return {
      info,
      run: (input, options) => enqueue(input, options),
      ...(stored === undefined
        ? {}
        : {
            sessions: {
              find: (sessionId) => stored.find(sessionId),
              resume: (sessionId, { approvals, ...options }: ServedResumeOptions) =>
                enqueue('', options, { sessionId, ...(approvals === undefined ? {} : { approvals }) }),
              cancel: (sessionId) => queue.cancelSession(sessionId),
            },
          }),
    };
  });
  return createCatalog(agents);
}
