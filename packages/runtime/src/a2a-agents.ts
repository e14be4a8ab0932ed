import type { ToolProvider } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { type ResolvedConfig, unusableValueError } from './config/layers.js';
import { RuntimeError } from './errors.js';

/**
 * The remote A2A agents among `names` (`a2aAgents`), one tool provider each, their cards read
 * once per runner. A card that cannot be read is a configuration error naming the entry's file
 * and line (never its headers). `@agent/a2a` loads only when an agent file uses one.
 */
export async function startA2aAgents(
  names: readonly string[],
  config: ResolvedConfig,
): Promise<Map<string, ToolProvider>> {
  const providers = new Map<string, ToolProvider>();
  const used = names.filter((name) => config.a2aAgents.has(name));
  if (used.length === 0) return providers;
  const { createA2aToolProvider } = await import('@agent/a2a');
  for (const name of used) {
    const entry = config.a2aAgents.get(name)!;
    const unusable = unusableValueError(entry.value);
    if (unusable !== undefined) throw unusable;
    const { url, headers, skills, timeoutMs, connectTimeoutMs, streaming, oauth } = entry.value;
    const { file, line } = entry.origin;
    const where = `${file}${line === undefined ? '' : `:${line}`}: a2aAgents.${name}`;
    if (oauth !== undefined)
      throw new RuntimeError({
        kind: 'configuration',
        file,
        ...(line === undefined ? {} : { line }),
        message: `${where}: \`oauth\` is not supported for A2A agents yet: send a token in \`headers\` (Authorization: Bearer \${VAR})`,
      });
    try {
      providers.set(
        name,
        await createA2aToolProvider({
          name,
          cardUrl: url,
          ...(headers === undefined ? {} : { headers }),
          ...(skills === undefined ? {} : { skills }),
          ...(timeoutMs === undefined ? {} : { timeoutMs }),
          ...(connectTimeoutMs === undefined ? {} : { connectTimeoutMs }),
          ...(streaming === undefined ? {} : { streaming }),
        }),
      );
    } catch (error) {
      throw new RuntimeError({
        kind: 'configuration',
        file,
        ...(line === undefined ? {} : { line }),
        message: config.redact(`${where}: ${errorMessage(error)}`),
      });
    }
  }
  return providers;
}
