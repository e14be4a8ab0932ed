import { cacheConfigProblems, sessionStoreConfigProblems } from '@agent/cache';
import type { ConfigError } from '@agent/protocol';
import { describeValue } from '@agent/protocol/util';
import { readTtlSetting } from '../agent-file/ttl-setting.js';
import { type Problem, problem } from '../errors.js';
import type { ConfigFile } from './schema.js';
import { UnusableValue } from './substitute.js';

type LineOf = (path: (string | number)[]) => number | undefined;

/**
 * What the JSON Schema cannot say about an `agent.json`'s cache settings: the TTL grammar of an
 * MCP server's `cache` and `toolsCache`, and whether `cache` (the store) can work (`url` only with
 * redis, a redis:// URL, ...). A value from a variable nobody set is left for when it is used.
 */
export function cacheSettingProblems(data: ConfigFile, file: string, lineOf: LineOf): Problem[] {
  const problems: Problem[] = [];
  const ttl = (value: unknown, path: (string | number)[]) => {
    if (value === undefined || value instanceof UnusableValue) return;
    readTtlSetting(value, label(path), { file, line: lineOf(path) }, problems);
  };
  for (const [name, server] of Object.entries(data.mcpServers ?? {})) {
    if (server === null) continue;
    ttl(server.cache, ['mcpServers', name, 'cache']);
    for (const [tool, value] of Object.entries(server.toolsCache ?? {}))
      ttl(value, ['mcpServers', name, 'toolsCache', tool]);
  }
  for (const [name, tool] of Object.entries(data.restTools ?? {}))
    if (tool !== null) ttl(tool.cache, ['restTools', name, 'cache']);
  for (const [name, agent] of Object.entries(data.a2aAgents ?? {})) {
    if (agent !== null) ttl(agent.cache, ['a2aAgents', name, 'cache']);
  }
  for (const [name, api] of Object.entries(data.openapiSpecs ?? {})) {
    if (api === null) continue;
    ttl(api.cache, ['openapiSpecs', name, 'cache']);
    for (const [tool, value] of Object.entries(api.toolsCache ?? {}))
      ttl(value, ['openapiSpecs', name, 'toolsCache', tool]);
  }
  problems.push(...storeProblems('cache', data.cache, cacheConfigProblems, file, lineOf));
  problems.push(...storeProblems('sessions', data.sessions, sessionStoreConfigProblems, file, lineOf));
  return problems;
}

/** Whether a store section (`cache`, `sessions`) can work, each problem at its line. */
function storeProblems(
  section: string,
  store: object | undefined,
  check: (config: Record<string, unknown>) => ConfigError[],
  file: string,
  lineOf: LineOf,
): Problem[] {
  if (store === undefined) return [];
  const problems: Problem[] = [];
  const usable = Object.fromEntries(
    Object.entries(store).filter(([, value]) => !(value instanceof UnusableValue)),
  );
  const unusable = Object.keys(store).filter((key) => !(key in usable));
  for (const error of check(usable)) {
    if (unusable.includes(error.field)) continue;
    const path = [section, error.field];
    const got =
      error.value === undefined && !(error.field in usable) ? 'nothing' : describeValue(error.value);
    problems.push(
      problem(
        'configuration',
        file,
        lineOf(path) ?? lineOf([section]),
        `\`${label(path)}\` must be ${error.allowed}, got ${got}`,
        { field: label(path), value: error.value, allowed: error.allowed },
      ),
    );
  }
  return problems;
}

function label(path: (string | number)[]): string {
  return path.join('.');
}
