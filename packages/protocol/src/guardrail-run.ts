// The vocabulary of guardrail runs that accounting, events and the op tree carry: no imports,
// so those files can use it without a cycle through `guardrails.ts`.

/** Where a guardrail runs: on the user's input, on the report, or on tool calls. */
export type GuardrailStage = 'input' | 'output' | 'tool';

export const GUARDRAIL_STAGES: readonly GuardrailStage[] = ['input', 'output', 'tool'];

/**
 * The moment of a stage a check ran at: `prompt` (input), `stream` (report text as it streams)
 * and `report` (the whole report before it is committed), `arguments` (before a tool call runs)
 * and `result` (its result before the model sees it).
 */
export type GuardrailPhase = 'prompt' | 'stream' | 'report' | 'arguments' | 'result';

export const GUARDRAIL_PHASES: readonly GuardrailPhase[] = [
  'prompt',
  'stream',
  'report',
  'arguments',
  'result',
];

/** What a check may answer (`GuardrailVerdict`'s `verdict`). */
export type GuardrailVerdictKind = 'pass' | 'block' | 'rewrite' | 'deny' | 'ask';

/**
 * How a guardrail run ended, as events, accounting and the op tree say it: a verdict, or
 * `error` (the check threw, answered something else or ran out of time: then `failOpen`
 * decided whether the run went on).
 */
export type GuardrailOutcome = GuardrailVerdictKind | 'error';

export const GUARDRAIL_OUTCOMES: readonly GuardrailOutcome[] = [
  'pass',
  'block',
  'rewrite',
  'deny',
  'ask',
  'error',
];

/** One guardrail run, as the `guardrail` event and the op tree's guardrail node carry it. */
export interface GuardrailRun {
  name: string;
  on: GuardrailStage;
  phase: GuardrailPhase;
  outcome: GuardrailOutcome;
  /** The verdict's reason, or what went wrong for `error`. */
  reason?: string;
  /** `tool` stage: the call checked. */
  callId?: string;
  tool?: string;
  /** Milliseconds the check took. */
  latencyMs: number;
  /** `error` outcomes: whether the run went on (`failOpen`). */
  failedOpen?: boolean;
}

/** Why a run ended `EXIT-GUARDRAIL`: the result's `guardrail`. */
export interface GuardrailTrip {
  name: string;
  on: GuardrailStage;
  phase: GuardrailPhase;
  reason: string;
  callId?: string;
  tool?: string;
}

/** What a tool policy decides for one call. */
export type ToolPolicyDecision = 'allow' | 'deny' | 'ask';

export const TOOL_POLICY_DECISIONS: readonly ToolPolicyDecision[] = ['allow', 'deny', 'ask'];

/** What the policy decided for one call: the `tool_policy` event and the tool node's `policy`. */
export interface ToolPolicyVerdict {
  callId: string;
  tool: string;
  decision: ToolPolicyDecision;
  /** The index of the rule that matched, or `default`. */
  rule: number | 'default';
  /** The rule's `name` (or `rule <index>`, or `default`). */
  ruleName: string;
  reason?: string;
}
