import type { ConversationMessage, ModelStreamEvent, ToolDefinition } from '@agent/protocol';
import { type Flavour, type ModelServer, startModelServer } from '@agent/testkit';
import { afterEach } from 'vitest';
import { createModelClient, type ModelClientConfig, type ProviderType } from '../src/index.js';
import { API_KEY, type Collected, collect } from './helpers.js';

/** One target of a fallback list: a provider type, a model, and the server rules it meets. */
export interface Target {
  type: ProviderType;
  model: string;
  /** The testkit path prefix that plays this server's rules (`/mistral/v1`). */
  flavour?: Flavour;
  config?: Partial<ModelClientConfig>;
}

/** A client of the target against the strict server (Anthropic at the root, others at `/v1`). */
export function clientAt(server: ModelServer, target: Target) {
  const root = target.flavour === undefined ? server.url : `${server.url}/${target.flavour}`;
  return createModelClient({
    type: target.type,
    provider: target.flavour ?? target.type,
    model: target.model,
    apiKey: API_KEY,
    baseURL: target.type === 'anthropic' ? root : `${root}/v1`,
    ...target.config,
  });
}

/** Starts strict servers for the tests of a file; each is closed after the test that started it. */
export function strictServers(): (options?: { fixturesDir?: string }) => Promise<ModelServer> {
  const open: ModelServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });
  return async (options = {}) => {
    const server = await startModelServer({ strict: true, ...options });
    open.push(server);
    return server;
  };
}

export const weatherTool: ToolDefinition = {
  name: 'get_weather',
  description: 'Weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** The assistant message a session keeps from one answer. */
export function assistantFrom(answer: Collected): ConversationMessage {
  return {
    role: 'assistant',
    content: answer.text,
    ...(answer.blocks.length > 0 ? { reasoning: answer.blocks } : {}),
    ...(answer.toolCalls.length > 0 ? { toolCalls: answer.toolCalls } : {}),
  };
}

/** The tool results and the next user notice, as the session appends them after a tool turn. */
export function afterTools(answer: Collected, notice = 'Continue.'): ConversationMessage[] {
  return [
    assistantFrom(answer),
    ...answer.toolCalls.map(
      (call): ConversationMessage => ({
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: '18C',
      }),
    ),
    { role: 'user', content: notice },
  ];
}

/** The notices a call yielded. */
export const noticesOf = (answer: Collected): string[] =>
  answer.events.flatMap((event: ModelStreamEvent) => (event.type === 'notice' ? [event.message] : []));

export { collect };
