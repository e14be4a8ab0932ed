import type { AgentResult, GuardrailTrip } from '@agent/protocol';

/** What every face tells its client when a guardrail stopped the run. */
export interface TripAnswer {
  trip: GuardrailTrip;
  /** `guardrail <name> blocked the <what>: <reason>`: names the rule, never the blocked text. */
  message: string;
}

/** What the trip blocked, in words: the input, the report, a tool call or its result. */
function blockedWhat(trip: GuardrailTrip): string {
  const tool = trip.tool === undefined ? '' : ` ${trip.tool}`;
  switch (trip.phase) {
    case 'prompt':
      return 'input';
    case 'stream':
    case 'report':
      return 'report';
    case 'arguments':
      return `tool call${tool}`;
    case 'result':
      return `result of tool call${tool}`;
  }
}

/**
 * The trip of a run a guardrail ended (`EXIT-GUARDRAIL`), with the message the faces answer
 * with (HTTP 422 on the HTTP faces, docs/headends.md); undefined for every other result. A
 * result without its `guardrail` (not expected) still maps, naming no guardrail.
 */
export function guardrailTrip(
  result: Pick<AgentResult, 'exitCode'> & { guardrail?: GuardrailTrip; error?: string },
): TripAnswer | undefined {
  if (result.exitCode !== 'EXIT-GUARDRAIL') return undefined;
  const trip: GuardrailTrip = result.guardrail ?? {
    name: 'unknown',
    on: 'output',
    phase: 'report',
    reason: result.error ?? 'a guardrail tripped',
  };
  return { trip, message: `guardrail ${trip.name} blocked the ${blockedWhat(trip)}: ${trip.reason}` };
}

/** The HTTP status of a guardrail trip on every HTTP face: the request was understood, and refused. */
export const GUARDRAIL_STATUS = 422;
