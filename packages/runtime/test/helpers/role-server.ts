import type { RecordedRequest, ScriptStep } from '@agent/testkit';
import { type ModelServer, startModelServer } from '@agent/testkit';

/**
 * A scripted model server (real HTTP, the official OpenAI client on the other side) where each
 * model name is one role with its own script: agents that run in parallel (advisors) each take
 * their own steps whatever the order their calls arrive in. A call no step was planned for is a
 * 500 the run reports.
 */
export async function startRoleServer(roles: Record<string, ScriptStep[]>): Promise<{
  server: ModelServer;
  /** The requests one role received, in order. */
  requestsOf: (role: string) => RecordedRequest[];
  /** Fails when a role left steps unused. */
  assertAllConsumed: () => void;
}> {
  const queues = new Map(Object.entries(roles).map(([role, steps]) => [role, [...steps]]));
  const server = await startModelServer({
    handler: async (request) => {
      const step = queues.get(request.model)?.shift();
      if (step === undefined) throw new Error(`no step planned for model ${request.model}`);
      return typeof step === 'function' ? step(request) : step;
    },
  });
  return {
    server,
    requestsOf: (role) => server.requests.filter((r) => r.model === role),
    assertAllConsumed: () => {
      const left = [...queues.entries()].filter(([, steps]) => steps.length > 0);
      if (left.length > 0) {
        throw new Error(
          `steps left unused: ${left.map(([role, steps]) => `${role} ${steps.length}`).join(', ')}`,
        );
      }
    },
  };
}

/** The first user message of a request: the prompt the session was given. */
export function userPrompt(request: RecordedRequest | undefined): string {
  const users = (request?.messages ?? []).filter((m) => m.role === 'user');
  const content = users[0]?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}
