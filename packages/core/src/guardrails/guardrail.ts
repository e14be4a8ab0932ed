import {
  ConfigError,
  GUARDRAIL_STAGES,
  type Guardrail,
  type GuardrailPhase,
  type GuardrailStage,
} from '@agent/protocol';

/** What `guardrail()` takes: a `Guardrail` (docs/guardrails.md). */
export type GuardrailSpec = Guardrail;

/** Default time a check may take before it counts as an `error`. */
export const DEFAULT_GUARDRAIL_TIMEOUT_MS = 10_000;

const GUARDRAIL_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/** The phases each stage may check. */
export const STAGE_PHASES: Readonly<Record<GuardrailStage, readonly GuardrailPhase[]>> = {
  input: ['prompt'],
  output: ['stream', 'report'],
  tool: ['arguments', 'result'],
};

/**
 * A guardrail from a check: `on` says where it runs (`input`, `output`, `tool`), `check` gets
 * the text (and the call, for tools) with an AbortSignal and answers a `GuardrailVerdict`.
 * Throws a `ConfigError` for a spec that cannot work (a bad name, stage, phase or timeout).
 */
export function guardrail(spec: GuardrailSpec): Guardrail {
  const problem = specProblem(spec);
  if (problem !== undefined)
    throw new ConfigError({ ...problem, source: `guardrail ${describe(spec?.name)}` });
  return Object.freeze({ ...spec });
}

function specProblem(spec: GuardrailSpec): { field: string; value?: unknown; allowed: string } | undefined {
  if (typeof spec !== 'object' || spec === null)
    return { field: 'guardrail', value: spec, allowed: 'an object' };
  if (typeof spec.name !== 'string' || !GUARDRAIL_NAME.test(spec.name))
    return { field: 'name', value: spec.name, allowed: '1-64 letters, digits, `_`, `.`, `:` or `-`' };
  if (!GUARDRAIL_STAGES.includes(spec.on))
    return { field: 'on', value: spec.on, allowed: GUARDRAIL_STAGES.join(', ') };
  if (typeof spec.check !== 'function') return { field: 'check', value: spec.check, allowed: 'a function' };
  if (spec.timeoutMs !== undefined && !(Number.isInteger(spec.timeoutMs) && spec.timeoutMs > 0))
    return { field: 'timeoutMs', value: spec.timeoutMs, allowed: 'a positive integer (milliseconds)' };
  if (spec.phases !== undefined) {
    const allowed = STAGE_PHASES[spec.on];
    const bad = Array.isArray(spec.phases)
      ? spec.phases.find((phase) => !allowed.includes(phase))
      : spec.phases;
    if (!Array.isArray(spec.phases) || bad !== undefined || spec.phases.length === 0)
      return {
        field: 'phases',
        value: bad ?? spec.phases,
        allowed: `a non-empty list of ${allowed.join(', ')}`,
      };
  }
  if (spec.tools !== undefined && (spec.on !== 'tool' || !isStringList(spec.tools)))
    return { field: 'tools', value: spec.tools, allowed: 'for `on: tool` only, a list of tool-name globs' };
  if (spec.parallel !== undefined && (spec.on !== 'input' || typeof spec.parallel !== 'boolean'))
    return { field: 'parallel', value: spec.parallel, allowed: 'for `on: input` only, true or false' };
  if (spec.failOpen !== undefined && typeof spec.failOpen !== 'boolean')
    return { field: 'failOpen', value: spec.failOpen, allowed: 'true or false' };
  return undefined;
}

function isStringList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string' && item.length > 0);
}

function describe(name: unknown): string {
  return typeof name === 'string' ? JSON.stringify(name.slice(0, 64)) : '(unnamed)';
}
