import type { AccountingEntry } from './accounting.js';
import type { FinalReport } from './final-report.js';
import type { GuardrailPhase, GuardrailStage, ToolPolicyDecision } from './guardrail-run.js';
import type { ConversationMessage } from './messages.js';
import type { SessionNode } from './op-tree.js';

/**
 * What a check is given. Text is what the check reads; for `stream`, the report text not yet
 * shown to anyone plus up to `overlap` characters already shown before it (so a match across
 * two chunks is seen), never the whole text again: a check over the stream stays linear.
 */
export type GuardrailSubject =
  | { phase: 'prompt'; text: string; history: readonly ConversationMessage[] }
  | { phase: 'stream'; text: string; overlap: number }
  | { phase: 'report'; text: string; report: FinalReport }
  | { phase: 'arguments'; callId: string; tool: string; arguments: Record<string, unknown>; text: string }
  | {
      phase: 'result';
      callId: string;
      tool: string;
      arguments: Record<string, unknown>;
      /** The result as the model would see it (before sizing); `rewrite` replaces it. */
      text: string;
    };

/** Who is asking, and how long it may take. */
export interface GuardrailContext {
  /** Aborted when the session is cancelled or the guardrail's time is up. */
  signal: AbortSignal;
  sessionId: string;
  agentPath: string;
  turn: number;
}

/**
 * What a check answers:
 * - `pass`: nothing to do;
 * - `block`: a tripwire: the run ends (`EXIT-GUARDRAIL`) and nothing the check saw reaches a
 *   user or a tool;
 * - `rewrite`: go on with `value` instead (the prompt text, the report content, the call's
 *   arguments object, the result text); not allowed at `stream` (there it holds the rest of the
 *   stream back until the `report` check decides);
 * - `deny` (`arguments` only): this call does not run, the model is told `reason`, the run goes on;
 * - `ask` (`arguments` only): a person decides this call, as for `approval.tools`.
 * `accounting` and `opTree` carry what the check itself cost (a model-judged guardrail's own
 * session): added to the session's accounting and shown under the guardrail's node.
 * `reason` names the rule that decided, never the text it matched (it reaches clients).
 */
export type GuardrailVerdict = (
  | { verdict: 'pass'; reason?: string }
  | { verdict: 'block'; reason: string }
  | { verdict: 'rewrite'; value: unknown; reason: string }
  | { verdict: 'deny'; reason: string }
  | { verdict: 'ask'; reason: string }
) & { accounting?: readonly AccountingEntry[]; opTree?: SessionNode };

/** A check on input, output or tool calls; built with `guardrail()` of `@agent/core`. */
export interface Guardrail {
  name: string;
  on: GuardrailStage;
  check: (
    subject: GuardrailSubject,
    context: GuardrailContext,
  ) => GuardrailVerdict | Promise<GuardrailVerdict>;
  /** `tool` only: globs over the tool names it checks (default every tool). */
  tools?: readonly string[];
  /**
   * The phases it checks, among its stage's (default all of them): `output` has `stream` and
   * `report`, `tool` has `arguments` and `result`, `input` only `prompt`.
   */
  phases?: readonly GuardrailPhase[];
  /** `input` only: start the model call at once and cancel it on a trip (default false: wait). */
  parallel?: boolean;
  /** Default 10 000 ms; past it the check is aborted and counts as an `error`. */
  timeoutMs?: number;
  /** On `error`: true goes on as if it passed, false (default) trips the run. */
  failOpen?: boolean;
}

/** One rule: calls of `tools` (globs over the names the model sees) for which `when` holds. */
export interface ToolPolicyRule {
  /** Shown in events and the record; default `rule <index>`. */
  name?: string;
  tools: string | readonly string[];
  /**
   * A condition on the call's arguments (docs/guardrails.md has the language, e.g.
   * `amount > \`100\``); absent: every call of `tools` matches.
   */
  when?: string;
  decision: ToolPolicyDecision;
  /** Told to the model on `deny`, to the person on `ask`. */
  reason?: string;
}

/** Rules evaluated in order for each tool call: the first that matches decides, else `default`. */
export interface ToolPolicy {
  /** Default `allow`. */
  default?: ToolPolicyDecision;
  rules: readonly ToolPolicyRule[];
}
