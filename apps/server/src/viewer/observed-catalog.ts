import { randomUUID } from 'node:crypto';
import type { AgentCatalog, ServedAgent, ServedRunOptions } from '@agent/headends';
import type { AgentResult } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { LiveSession, type LiveSessionLimits } from './live-session.js';
import type { MemorySessionSource } from './session-source.js';

/**
 * The same agents, each run (and resumed run) recorded in `source` from its events as it goes:
 * every face that runs agents through this catalog shows up in the viewer.
 */
export function observedCatalog(
  catalog: AgentCatalog,
  source: MemorySessionSource,
  limits: LiveSessionLimits,
): AgentCatalog {
  const agents = new Map<string, ServedAgent>();
  const observe = async <O extends ServedRunOptions>(
    name: string,
    options: O,
    run: (options: O) => Promise<AgentResult>,
  ): Promise<AgentResult> => {
    const live = new LiveSession(randomUUID(), name, options.headendId, limits);
    source.started(live);
    const onEvent: ServedRunOptions['onEvent'] = (event, meta) => {
      options.onEvent?.(event, meta);
      // The viewer only watches: nothing it does with an event may break the run.
      try {
        live.apply(event, meta);
        source.changed(live.view.id);
      } catch {}
    };
    try {
      const result = await run({ ...options, onEvent });
      live.finish(result, undefined);
      return result;
    } catch (error) {
      live.finish(undefined, errorMessage(error));
      throw error;
    } finally {
      source.ended(live);
    }
  };
  const wrap = (agent: ServedAgent): ServedAgent => {
    const { sessions } = agent;
    return {
      info: agent.info,
      run: (input, options) => observe(agent.info.name, options, (o) => agent.run(input, o)),
      ...(sessions === undefined
        ? {}
        : {
            sessions: {
              find: (sessionId) => sessions.find(sessionId),
              resume: (sessionId, options) =>
                observe(agent.info.name, options, (o) => sessions.resume(sessionId, o)),
            },
          }),
    };
  };
  return {
    list: () => catalog.list(),
    get: (name) => {
      const known = agents.get(name);
      if (known !== undefined) return known;
      const agent = catalog.get(name);
      if (agent === undefined) return undefined;
      const wrapped = wrap(agent);
      agents.set(name, wrapped);
      return wrapped;
    },
  };
}
