import { cacheKey } from '@agent/cache';
import type { ModelRef } from '../agent-file/definition.js';
import type { ResolvedConfig } from '../config/layers.js';

/**
 * A hash of credentials (tokens, keys, headers, env): part of a cache key so two projects with
 * other credentials never share an answer, while the secret itself is in no key and no row.
 */
export function credentialsHash(credentials: unknown): string {
  return cacheKey({ credentials });
}

/**
 * What makes an MCP server (or HTTP API, or remote A2A agent) the one it is: command, arguments, directory, URL, the
 * request it sends, and a hash of what it authenticates with (env, headers, auth, OAuth).
 */
export function serverIdentity(config: ResolvedConfig, name: string): unknown {
  const rest = config.restTools.get(name)?.value;
  if (rest !== undefined)
    return {
      rest: [rest.method ?? 'GET', rest.url, rest.bodyTemplate ?? null],
      credentials: credentialsHash({ headers: rest.headers ?? null, auth: rest.auth ?? null }),
    };
  const spec = config.openapiSpecs.get(name)?.value;
  if (spec !== undefined)
    return {
      openapi: [spec.spec, spec.baseUrl ?? null],
      credentials: credentialsHash({ headers: spec.headers ?? null, auth: spec.auth ?? null }),
    };
  const agent = config.a2aAgents.get(name)?.value;
  if (agent !== undefined)
    return {
      a2a: agent.url,
      credentials: credentialsHash({ headers: agent.headers ?? null, oauth: agent.oauth ?? null }),
    };
  const entry = config.mcpServers.get(name)?.value;
  if (entry === undefined) return null;
  const { type, command, args, cwd, url, env, headers, oauth } = entry;
  return {
    type,
    command,
    args,
    cwd,
    url,
    credentials: credentialsHash({ env: env ?? null, headers: headers ?? null, oauth: oauth ?? null }),
  };
}

/**
 * What makes a model reference answer as it does besides its name: the provider's type, its
 * endpoint (`baseURL`), the extra body fields, and a hash of its key and headers (another
 * account may be another deployment).
 */
export function modelIdentity(config: ResolvedConfig, ref: ModelRef): unknown {
  const provider = config.providers.get(ref.provider)?.value;
  if (provider === undefined) return [ref.spec];
  return [
    ref.spec,
    {
      type: provider.type,
      baseURL: provider.baseURL ?? null,
      extraBody: [provider.extraBody ?? null, provider.models?.[ref.model]?.extraBody ?? null],
      credentials: credentialsHash({ apiKey: provider.apiKey ?? null, headers: provider.headers ?? null }),
    },
  ];
}
