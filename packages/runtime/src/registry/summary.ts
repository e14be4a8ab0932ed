import type { AgentDefinition, ModelRef } from '../agent-file/definition.js';
import type { AgentSummary } from '../api.js';
import { orchestrationSummary } from '../orchestration/summary.js';

/** What `list`, headends and runners show of an agent. */
export function summarizeAgent(
  definition: AgentDefinition,
  children: readonly (AgentDefinition | undefined)[],
  models: readonly ModelRef[] = definition.models,
  resolve: (path: string) => AgentDefinition | undefined = () => undefined,
): AgentSummary {
  const orchestration = orchestrationSummary(definition, resolve);
  return {
    toolName: definition.toolName,
    file: definition.file,
    ...(definition.description === undefined ? {} : { description: definition.description }),
    ...(definition.usage === undefined ? {} : { usage: definition.usage }),
    models: models.map((ref) => ref.spec),
    tools: definition.tools.map((tool) => tool.name),
    subAgents: children.map((child, index) => child?.toolName ?? definition.agents[index]?.spec ?? '?'),
    outputFormat: definition.output.format,
    ...(definition.output.schema === undefined ? {} : { outputSchema: definition.output.schema }),
    ...(definition.input.format === 'json' && definition.input.schema !== undefined
      ? { inputSchema: definition.input.schema }
      : {}),
    ...(orchestration === undefined ? {} : { orchestration }),
  };
}
