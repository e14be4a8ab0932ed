import type { AgentEvent, AgentEventMeta, ConversationMessage } from '@agent/protocol';
import {
  finalReport,
  type ModelServer,
  type RecordedRequest,
  type ScriptedAnswer,
  startModelServer,
} from '@agent/testkit';
import { afterEach } from 'vitest';
import { agentFile, isolated, localConfig, tempTree } from '../helpers/temp-tree.js';

const servers: ModelServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** The user's prompt of a model request (its first user message). */
export function userPrompt(messages: readonly ConversationMessage[]): string {
  const first = messages.find((m) => m.role === 'user')?.content;
  return typeof first === 'string' ? first : JSON.stringify(first);
}

/**
 * A model server that answers every call with a report naming the prompt it was asked (so a
 * replayed answer can be told from a fresh one), counting the calls. Closed after the test.
 */
export async function answeringServer(
  answer?: (request: RecordedRequest) => ScriptedAnswer,
): Promise<ModelServer> {
  let answered = 0;
  const numbered = (request: RecordedRequest) =>
    finalReport(`Answer #${++answered} to: ${userPrompt(request.messages)}`);
  const server = await startModelServer({ handler: answer ?? numbered });
  servers.push(server);
  return server;
}

/** A temp tree with an agent `a.ai` (extra frontmatter lines) and an `agent.json` over `local`. */
export function cachedAgentTree(
  server: ModelServer,
  frontmatter: string,
  config: object = {},
  extraFiles: Record<string, string | object> = {},
) {
  const root = tempTree({
    'agent.json': localConfig(config, `${server.url}/v1`),
    'a.ai': agentFile(`models: [local/m]\n${frontmatter}`),
    ...extraFiles,
  });
  return { root, options: isolated(root) };
}

/** Every event of a run, with its meta, for assertions. */
export function recorder(): {
  events: { event: AgentEvent; meta: AgentEventMeta }[];
  onEvent: (event: AgentEvent, meta: AgentEventMeta) => void;
  ofType: <T extends AgentEvent['type']>(type: T) => Extract<AgentEvent, { type: T }>[];
} {
  const events: { event: AgentEvent; meta: AgentEventMeta }[] = [];
  return {
    events,
    onEvent: (event, meta) => events.push({ event, meta }),
    ofType: (type) =>
      events
        .map((e) => e.event)
        .filter((e): e is Extract<AgentEvent, { type: typeof type }> => e.type === type),
  };
}
