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
  const recorder: Recorder = { source, limits };
  const agents = new Map<string, ServedAgent>();
  return {
    list: () => catalog.list(),
    get: (name) => {
      const known = agents.get(name);
      if (known !== undefined) return known;
      const agent = catalog.get(name);
      if (agent === undefined) return undefined;
      const wrapped = recordedAgent(agent, recorder);
      agents.set(name, wrapped);
      return wrapped;
    },
  };
}

/** Where runs are recorded, and how much of each is kept. */
interface Recorder {
  source: MemorySessionSource;
  limits: LiveSessionLimits;
}

/** The agent with each run and resumed run recorded. */
function recordedAgent(agent: ServedAgent, recorder: Recorder): ServedAgent {
  const { sessions } = agent;
  const name = agent.info.name;
  return {
    info: agent.info,
    run: (input, options) => recordedRun(recorder, name, options, (o) => agent.run(input, o)),
    ...(sessions === undefined
      ? {}
      : {
          sessions: {
            find: (sessionId) => sessions.find(sessionId),
            resume: (sessionId, options) =>
              recordedRun(recorder, name, options, (o) => sessions.resume(sessionId, o)),
          },
        }),
  };
}

/** Runs `run` as a live session of the source: started, fed every event, finished with its result or error. */
async function recordedRun<O extends ServedRunOptions>(
  recorder: Recorder,
  name: string,
  options: O,
  run: (options: O) => Promise<AgentResult>,
): Promise<AgentResult> {
  const { source } = recorder;
  const live = new LiveSession(randomUUID(), name, options.headendId, recorder.limits);
  // Whose run it is: the viewer shows it to that principal (and to operators) only.
  if (options.owner !== undefined) live.view.owner = options.owner;
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
}
