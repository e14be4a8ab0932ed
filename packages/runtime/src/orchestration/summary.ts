import type { OrchestrationSummary } from '@agent/protocol';
import type { AgentDefinition, FileRef } from '../agent-file/definition.js';

/** What listings show of an agent's orchestration: the agents by name (the file as written when not loaded). */
export function orchestrationSummary(
  definition: Pick<AgentDefinition, 'orchestration'>,
  resolve: (path: string) => Pick<AgentDefinition, 'toolName'> | undefined,
): OrchestrationSummary | undefined {
  const o = definition.orchestration;
  if (o === undefined) return undefined;
  const name = (ref: FileRef) => resolve(ref.path)?.toolName ?? ref.spec;
  return {
    advisors: o.advisors.map(name),
    ...(o.router === undefined ? {} : { router: o.router.map(name) }),
    ...(o.handoff === undefined ? {} : { handoff: name(o.handoff) }),
  };
}
