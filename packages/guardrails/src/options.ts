import { guardrail } from '@agent/core';
import {
  ConfigError,
  GUARDRAIL_STAGES,
  type Guardrail,
  type GuardrailPhase,
  type GuardrailStage,
} from '@agent/protocol';

/** What every built-in kind takes besides its own options (as `guardrail()` of `@agent/core`). */
export interface BuiltinOptions {
  /** Shown in events, logs and the trip (default: the kind's name). */
  name?: string;
  /** Where it runs: `input` (the prompt), `output` (the report), `tool` (calls and results). */
  on: GuardrailStage;
  /** The phases of its stage it checks (default: every phase the kind can check). */
  phases?: readonly GuardrailPhase[];
  /** `tool` only: globs over the tool names it checks (default every tool). */
  tools?: readonly string[];
  timeoutMs?: number;
  failOpen?: boolean;
}

/** A problem with an option: the field, what was given and what is allowed. */
export interface OptionProblem {
  field: string;
  value?: unknown;
  allowed: string;
  message?: string;
}

/** Throws the `ConfigError` for `problem`, naming the guardrail as `guardrail()` does. */
export function configError(name: string, problem: OptionProblem): ConfigError {
  return new ConfigError({ ...problem, source: `guardrail ${JSON.stringify(name.slice(0, 64))}` });
}

/** The kind's options as an object with a known `on`, or the ConfigError saying what is allowed. */
export function checkBase(kind: string, options: unknown): string {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw configError(kind, { field: 'options', value: options, allowed: 'an object' });
  const { name, on } = options as { name?: unknown; on?: unknown };
  const shown = typeof name === 'string' ? name : kind;
  if (!GUARDRAIL_STAGES.includes(on as GuardrailStage))
    throw configError(shown, { field: 'on', value: on, allowed: GUARDRAIL_STAGES.join(', ') });
  return shown;
}

/**
 * Phases a kind can check at its stage. `exclude` lists what this configuration cannot check
 * (a `require` at `stream`: a piece of the stream never holds the whole text). Asking for one
 * of them is a ConfigError; the default is every phase left.
 */
export function resolvePhases(
  name: string,
  options: BuiltinOptions,
  supported: readonly GuardrailPhase[],
  why?: string,
): readonly GuardrailPhase[] {
  const because = why === undefined ? '' : ` (${why})`;
  const { on, phases } = options;
  const allowed = STAGE_PHASES[on].filter((phase) => supported.includes(phase));
  if (allowed.length === 0)
    throw configError(name, {
      field: 'on',
      value: on,
      allowed: `a stage with ${supported.join(' or ')} phases${because}`,
    });
  if (phases === undefined) return allowed;
  const bad = Array.isArray(phases) ? phases.find((phase) => !allowed.includes(phase)) : phases;
  if (!Array.isArray(phases) || phases.length === 0 || bad !== undefined)
    throw configError(name, {
      field: 'phases',
      value: bad ?? phases,
      allowed: `a non-empty list of ${allowed.join(', ')}${because}`,
    });
  return phases;
}

const STAGE_PHASES: Readonly<Record<GuardrailStage, readonly GuardrailPhase[]>> = {
  input: ['prompt'],
  output: ['stream', 'report'],
  tool: ['arguments', 'result'],
};

/** One of `allowed`, or the ConfigError listing them. */
export function oneOf<T extends string>(
  name: string,
  field: string,
  value: unknown,
  allowed: readonly T[],
): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw configError(name, { field, value, allowed: `one of ${allowed.join(', ')}` });
}

/** The `Guardrail`, built and checked by `guardrail()` of `@agent/core`. */
export function build(
  name: string,
  options: BuiltinOptions,
  phases: readonly GuardrailPhase[],
  check: Guardrail['check'],
): Guardrail {
  const { on, tools, timeoutMs, failOpen } = options;
  return guardrail({
    name,
    on,
    phases,
    check,
    ...(tools === undefined ? {} : { tools }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(failOpen === undefined ? {} : { failOpen }),
  });
}
