import type { OrchestrationSummary } from '@agent/protocol';

function names(list: readonly string[]): string {
  if (list.length <= 1) return list.join('');
  return `${list.slice(0, -1).join(', ')} or ${list.at(-1)}`;
}

/**
 * One sentence on the agents chained around an agent, for descriptions a client reads:
 * `Advisors first: a, b. Routes the request to billing or tech. Its answer is finished by formatter.`
 */
export function orchestrationText(orchestration: OrchestrationSummary | undefined): string | undefined {
  if (orchestration === undefined) return undefined;
  const parts: string[] = [];
  if (orchestration.advisors.length > 0) parts.push(`Advisors first: ${orchestration.advisors.join(', ')}.`);
  if (orchestration.router !== undefined && orchestration.router.length > 0) {
    parts.push(`Routes the request to ${names(orchestration.router)}.`);
  }
  if (orchestration.handoff !== undefined) parts.push(`Its answer is finished by ${orchestration.handoff}.`);
  return parts.length === 0 ? undefined : parts.join(' ');
}

/** The description with the orchestration sentence after it. */
export function describedWithOrchestration(
  description: string,
  orchestration: OrchestrationSummary | undefined,
): string {
  const text = orchestrationText(orchestration);
  return text === undefined ? description : `${description}\n${text}`;
}
