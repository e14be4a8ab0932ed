import { type Admission, type AgentCatalog, type ServedHeadend, serve } from '@agent/headends/http';
import { configError } from './config-values.js';
import type { ServerConfig } from './server-config.js';
import { connectionLimits } from './server-limits.js';

/** A headend that is listening, and how to drain it. */
export interface RunningHeadend {
  name: string;
  /** Its concurrency slots and waiting line (for the queue metrics). */
  admission?: Admission;
  drain(deadlineMs: number): Promise<void>;
}

/**
 * Starts the Slack headend: Socket Mode (no public URL), plus the slash-command route when
 * `slack.port` is set. With no routes and no default agent, the only agent answers.
 */
export async function startSlack(
  config: ServerConfig,
  catalog: AgentCatalog,
  log: (line: string) => void,
): Promise<RunningHeadend | undefined> {
  const slack = config.slack;
  if (slack === undefined) return undefined;
  const { port, ...options } = slack;
  const agents = catalog.list();
  let defaultAgent = options.defaultAgent;
  if (defaultAgent === undefined && (options.routes ?? []).length === 0) {
    if (agents.length !== 1) {
      throw configError(
        'slack.defaultAgent',
        undefined,
        'an agent name, or slack.routes',
        `slack: ${agents.length} agents are served; name slack.defaultAgent or give slack.routes in server.json`,
      );
    }
    defaultAgent = agents[0]?.name;
  }
  // The Slack SDKs load only for a server that talks to Slack.
  const { createSlackHeadend } = await import('@agent/headends');
  const headend = createSlackHeadend({
    ...options,
    catalog,
    defaultAgent,
    concurrency: config.concurrency,
    queueSize: config.queueSize,
    log: (level, message) => {
      if (level !== 'debug') log(`agent-server: slack: ${message}`);
    },
  });
  let served: ServedHeadend | undefined;
  if (port !== undefined) {
    served = await serve(headend, { port, host: config.host, ...connectionLimits(config) });
    log(`agent-server: slack listening on ${served.url}/slack/commands`);
  }
  try {
    await headend.start();
  } catch (error) {
    await (served?.close() ?? headend.dispose());
    throw error;
  }
  log('agent-server: slack connected (Socket Mode)');
  return {
    name: 'slack',
    drain: async (deadlineMs) => {
      if (served !== undefined) {
        await served.drain(deadlineMs);
        return;
      }
      headend.admission.beginDrain();
      await Promise.race([headend.admission.idle(), new Promise((r) => setTimeout(r, deadlineMs).unref())]);
      await headend.dispose();
    },
  };
}
