import type { A2aAgentOptions } from '@agent/a2a';
import type { ToolProvider } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { type ResolvedConfig, unusableValueError } from '../config/layers.js';
import type { ConfigEntry } from '../config/merge.js';
import type { A2aAgentEntry } from '../config/schema.js';
import { RuntimeError } from '../errors.js';

/**
 * The remote A2A agents among `names` (`a2aAgents`), one tool provider each, their cards read
 * once per runner. A card that cannot be read is a configuration error naming the entry's file
 * and line (never its headers). `@agent/a2a` loads only when an agent file uses one; `@agent/mcp`
 * (the process's tool queues, the OAuth client) as well.
 */
export async function startA2aAgents(
  names: readonly string[],
  config: ResolvedConfig,
): Promise<Map<string, ToolProvider>> {
  const providers = new Map<string, ToolProvider>();
  const used = names.filter((name) => config.a2aAgents.has(name));
  if (used.length === 0) return providers;
  const { createA2aToolProvider } = await import('@agent/a2a');
  const { clientCredentialsFetch, defaultToolQueues } = await import('@agent/mcp');
  for (const name of used) {
    const entry = config.a2aAgents.get(name)!;
    const unusable = unusableValueError(entry.value);
    if (unusable !== undefined) throw unusable;
    const { url, headers, skills, timeoutMs, connectTimeoutMs, streaming, oauth, queue } = entry.value;
    const fail = (message: string) => entryError(entry, config, message);
    let authFetch: typeof fetch | undefined;
    if (oauth !== undefined) {
      const problem = oauthProblem(entry.value);
      authFetch = problem === undefined ? clientCredentialsFetch(name, url, oauth) : undefined;
      if (authFetch === undefined) throw fail(problem ?? 'oauth cannot be used');
    }
    const options: A2aAgentOptions = {
      name,
      cardUrl: url,
      queue: queue ?? 'default',
      queues: defaultToolQueues,
      ...(headers === undefined ? {} : { headers }),
      ...(authFetch === undefined ? {} : { fetch: authFetch }),
      ...(skills === undefined ? {} : { skills }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(connectTimeoutMs === undefined ? {} : { connectTimeoutMs }),
      ...(streaming === undefined ? {} : { streaming }),
    };
    try {
      providers.set(name, await createA2aToolProvider(options));
    } catch (error) {
      throw fail(errorMessage(error));
    }
  }
  return providers;
}

/**
 * What keeps an entry's `oauth` from working: only `client_credentials` is supported (a stored
 * `authorization_code` login is `agent mcp login`'s, which speaks MCP to the server).
 */
function oauthProblem(entry: A2aAgentEntry): string | undefined {
  const { oauth, headers } = entry;
  if (oauth === undefined) return undefined;
  if (oauth.grant !== 'client_credentials')
    return '`oauth` supports only `grant: client_credentials` (with `clientId`, `clientSecret` and `issuer`) for A2A agents; a token from a user login goes in `headers` (an `Authorization` header from a variable)';
  const missing = (['clientId', 'clientSecret', 'issuer'] as const).filter((key) => !oauth[key]);
  if (missing.length > 0)
    return `\`oauth\` with grant client_credentials needs ${missing.map((key) => `\`${key}\``).join(', ')}`;
  if (Object.keys(headers ?? {}).some((key) => key.toLowerCase() === 'authorization'))
    return '`oauth` and an `Authorization` header cannot both be set: the token would replace the header';
  return undefined;
}

function entryError(
  entry: ConfigEntry<A2aAgentEntry>,
  config: ResolvedConfig,
  message: string,
): RuntimeError {
  const { file, line } = entry.origin;
  const where = `${file}${line === undefined ? '' : `:${line}`}: a2aAgents.${entry.name}`;
  return new RuntimeError({
    kind: 'configuration',
    file,
    ...(line === undefined ? {} : { line }),
    message: config.redact(`${where}: ${message}`),
  });
}
