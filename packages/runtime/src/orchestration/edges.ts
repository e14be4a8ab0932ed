import type { AgentDefinition, FileRef } from '../agent-file/definition.js';

/** How one agent file names another. */
export type AgentRelation = 'sub-agent' | 'advisor' | 'router destination' | 'handoff' | 'guardrail judge';

export interface AgentEdge {
  ref: FileRef;
  relation: AgentRelation;
}

/**
 * Every agent file `definition` names, in the order they are written: sub-agents, advisors,
 * destinations, handoff, then the judges of its `model` guardrails.
 */
export function agentEdges(
  definition: Pick<AgentDefinition, 'agents' | 'orchestration' | 'guardrails'>,
): AgentEdge[] {
  const edges: AgentEdge[] = definition.agents.map((ref) => ({ ref, relation: 'sub-agent' }));
  const o = definition.orchestration;
  for (const ref of o?.advisors ?? []) edges.push({ ref, relation: 'advisor' });
  for (const ref of o?.router ?? []) edges.push({ ref, relation: 'router destination' });
  if (o?.handoff !== undefined) edges.push({ ref: o.handoff, relation: 'handoff' });
  for (const guard of definition.guardrails ?? [])
    if (guard.kind === 'model') edges.push({ ref: guard.agent, relation: 'guardrail judge' });
  return edges;
}

/** The `from` a referenced agent file is loaded with (problems then name the referring line). */
export function edgeOrigin(
  definition: Pick<AgentDefinition, 'file'>,
  edge: AgentEdge,
): { file: string; line?: number; spec: string; what: string } {
  return {
    file: definition.file,
    ...(edge.ref.line === undefined ? {} : { line: edge.ref.line }),
    spec: edge.ref.spec,
    what: `${edge.relation} file`,
  };
}
