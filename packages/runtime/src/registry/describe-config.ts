import { dirname, resolve } from 'node:path';
import { type AgentDefinition, loadAgentDefinition } from '../agent-file/definition.js';
import { type ReferenceScope, referenceScope } from '../agent-file/reference-scope.js';
import type { AgentSummary, ConfigSummary, ResolveOptions } from '../api.js';
import { resolveConfig } from '../config/layers.js';
import { problemsError } from '../errors.js';
import { agentEdges, edgeOrigin } from '../orchestration/edges.js';
import { summarizeAgent } from './summary.js';

/**
 * What the configuration provides (layers read, providers with their listed models, MCP
 * servers) and a summary of each given agent file and its sub-agents. Nothing is started and
 * no variable needs to be set. Throws `RuntimeError` for a config or agent file that is invalid.
 */
export async function describeConfig(
  options: ResolveOptions & { agentFiles?: string[] } = {},
): Promise<{ config: ConfigSummary; agents: AgentSummary[] }> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const files = (options.agentFiles ?? []).map((file) => resolve(cwd, file));
  const config = resolveConfig({ ...options, cwd }, files[0] === undefined ? undefined : dirname(files[0]));
  const summary: ConfigSummary = {
    layers: config.layers,
    providers: [...config.providers.values()].map((entry) => ({
      name: entry.name,
      type: String(entry.value.type),
      models: Object.keys(entry.value.models ?? {}),
    })),
    mcpServers: [...config.mcpServers.values()].map((entry) => ({
      name: entry.name,
      type: entry.value.type ?? (entry.value.command !== undefined ? 'stdio' : 'http'),
    })),
    httpApis: [
      ...[...config.restTools.values()].map((entry) => ({
        name: entry.name,
        type: `rest ${entry.value.method ?? 'GET'}`,
      })),
      ...[...config.openapiSpecs.values()].map((entry) => ({ name: entry.name, type: 'openapi' })),
      ...[...config.a2aAgents.values()].map((entry) => ({ name: entry.name, type: 'a2a' })),
    ],
  };
  const loaded = new Map<string, AgentDefinition>();
  const order: string[] = [];
  const visit = (
    path: string,
    scope: ReferenceScope,
    from?: { file: string; line?: number; spec: string; what?: string },
  ) => {
    if (loaded.has(path)) return;
    const { definition, problems } = loadAgentDefinition(path, {
      cwd,
      scope,
      ...(from === undefined ? {} : { from }),
    });
    if (definition === undefined) throw problemsError(problems);
    loaded.set(path, definition);
    order.push(path);
    for (const edge of agentEdges(definition)) visit(edge.ref.path, scope, edgeOrigin(definition, edge));
  };
  for (const file of files) visit(file, referenceScope(file, config.allowedPaths));
  const agents = order.map((path) => {
    const definition = loaded.get(path)!;
    return summarizeAgent(
      definition,
      definition.agents.map((ref) => loaded.get(ref.path)),
      definition.models,
      (ref) => loaded.get(ref),
    );
  });
  return { config: summary, agents };
}

/**
 * The configuration's `persistence.sessionsDir` (absolute), where `agent inspect` looks a
 * session id up; undefined when none is set. Throws `RuntimeError` for a configuration that
 * cannot be read.
 */
export function configuredSessionsDir(options: ResolveOptions, agentFile?: string): string | undefined {
  const cwd = resolve(options.cwd ?? process.cwd());
  const config = resolveConfig(
    { ...options, cwd },
    agentFile === undefined ? undefined : dirname(resolve(cwd, agentFile)),
  );
  return config.persistence?.value.sessionsDir;
}
