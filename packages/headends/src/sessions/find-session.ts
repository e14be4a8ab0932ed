import type { SessionSnapshot } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import type { AgentCatalog, ServedAgent } from '../agent-catalog.js';
import { canSee, type Principal, sessionOwner } from '../principal.js';

/** The session ids stores accept (`docs/sessions.md`). */
const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Where a session id leads: to an agent that can resume it, or to why not. */
export type SessionLookup =
  | { kind: 'found'; snapshot: SessionSnapshot; agent: ServedAgent }
  | { kind: 'not_found' | 'conflict' | 'bad_request' | 'server_error'; message: string };

/**
 * Finds a stored session `principal` may see among the catalog's agents: the one whose agent
 * file started it. Another principal's session is answered exactly as an unknown id (so ids
 * cannot be probed); a session another agent file started (stored in the same store, but not
 * served here) is a conflict, said with the agent's name; a store that is down is a server
 * error naming it.
 */
export async function findSession(
  catalog: AgentCatalog,
  sessionId: string,
  principal: Principal,
): Promise<SessionLookup> {
  if (!SESSION_ID.test(sessionId)) {
    return {
      kind: 'bad_request',
      message: `${JSON.stringify(sessionId.slice(0, 200))} is not a session id (1-128 letters, digits, ".", "_", ":", "-")`,
    };
  }
  const agents = catalog
    .list()
    .map((info) => catalog.get(info.name))
    .filter((agent): agent is ServedAgent => agent?.sessions !== undefined);
  if (agents.length === 0) return { kind: 'not_found', message: 'this server keeps no sessions' };
  let foreign: SessionSnapshot | undefined;
  for (const agent of agents) {
    let found: Awaited<ReturnType<NonNullable<ServedAgent['sessions']>['find']>>;
    try {
      found = await agent.sessions!.find(sessionId);
    } catch (error) {
      return { kind: 'server_error', message: `the session store cannot be read: ${errorMessage(error)}` };
    }
    if (found === undefined || !canSee(principal, sessionOwner(found.snapshot))) continue;
    if (found.startedHere) return { kind: 'found', snapshot: found.snapshot, agent };
    foreign = found.snapshot;
  }
  if (foreign !== undefined) {
    return {
      kind: 'conflict',
      message: `session ${JSON.stringify(sessionId)} was started by agent "${foreign.agent}" from an agent file this server does not serve (served: ${catalog
        .list()
        .map((info) => info.name)
        .join(', ')})`,
    };
  }
  return {
    kind: 'not_found',
    message: `no session ${JSON.stringify(sessionId)} (never stored, or expired: a finished session is kept for sessions.ttl, an unfinished one at least 30 days)`,
  };
}

const resuming = new WeakMap<AgentCatalog, Set<string>>();

/**
 * Marks a session as being resumed in this process, so two requests never continue it twice at
 * once; false when it already is. `release` ends the mark.
 */
export function claimSession(catalog: AgentCatalog, sessionId: string): { release(): void } | undefined {
  let ids = resuming.get(catalog);
  if (ids === undefined) {
    ids = new Set();
    resuming.set(catalog, ids);
  }
  if (ids.has(sessionId)) return undefined;
  ids.add(sessionId);
  const held = ids;
  return { release: () => held.delete(sessionId) };
}
