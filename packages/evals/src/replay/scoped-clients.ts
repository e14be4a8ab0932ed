import type { ModelClient } from '@agent/protocol';
import { createModelClient, type ModelClientConfig } from '@agent/providers';
import type { ClientFactory, SessionHooks } from '@agent/runtime';
import type { SessionLabeler } from './record-tapes.js';

/** The key the official clients are built with: the replay server checks none. */
const REPLAY_API_KEY = 'replay';

/** The base URL a client of this type takes for the replay server, scoped to a session. */
export function replayBaseURL(serverURL: string, type: ModelClientConfig['type'], scope?: string): string {
  const scoped = scope === undefined ? serverURL : `${serverURL}/scope/${encodeURIComponent(scope)}`;
  // The Anthropic SDK adds `/v1/messages` itself; the OpenAI ones add only the route.
  return type === 'anthropic' ? scoped : `${scoped}/v1`;
}

/**
 * The official client of each configured provider, pointed at the replay server (`clientFactory`),
 * and for each session one whose base URL names the session (`sessionHooks.modelClient`), so the
 * server answers each session from its own tape. No API key is needed or sent.
 */
export function scopedClients(
  serverURL: string,
  label: SessionLabeler,
): {
  clientFactory: ClientFactory;
  modelClient: NonNullable<SessionHooks['modelClient']>;
} {
  const configs = new Map<string, ModelClientConfig>();
  const key = (provider: string, model: string) => `${provider}\u0000${model}`;
  const build = (config: ModelClientConfig, scope?: string): ModelClient =>
    createModelClient({
      ...config,
      apiKey: REPLAY_API_KEY,
      baseURL: replayBaseURL(serverURL, config.type, scope),
    });
  return {
    clientFactory: ({ provider, model, config }) => {
      configs.set(key(provider, model), config);
      return build(config);
    },
    modelClient: (client, context) => {
      const config = configs.get(key(context.provider, context.model));
      return config === undefined ? client : build(config, label(context.session));
    },
  };
}
