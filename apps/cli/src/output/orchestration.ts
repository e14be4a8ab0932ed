import type { OrchestrationSummary } from '@agent/protocol';

/** `agent list` lines: one per stage the agent has (`advisors: a, b`, `router: ...`, `handoff: ...`). */
export function orchestrationLines(orchestration: OrchestrationSummary | undefined): string[] {
  if (orchestration === undefined) return [];
  const lines: string[] = [];
  if (orchestration.advisors.length > 0) lines.push(`advisors: ${orchestration.advisors.join(', ')}`);
  if (orchestration.router !== undefined) lines.push(`router: ${orchestration.router.join(', ')}`);
  if (orchestration.handoff !== undefined) lines.push(`handoff: ${orchestration.handoff}`);
  return lines;
}

/**
 * The stages in the order they run, for `agent validate`:
 * `[advisors: a, b] -> main -> [router: billing | tech] -> [handoff: formatter]`.
 */
export function orchestrationChain(name: string, orchestration: OrchestrationSummary): string {
  const stages: string[] = [];
  if (orchestration.advisors.length > 0) stages.push(`[advisors: ${orchestration.advisors.join(', ')}]`);
  stages.push(name);
  if (orchestration.router !== undefined) stages.push(`[router: ${orchestration.router.join(' | ')}]`);
  if (orchestration.handoff !== undefined) stages.push(`[handoff: ${orchestration.handoff}]`);
  return stages.join(' -> ');
}
