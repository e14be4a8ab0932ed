import {
  ConfigError,
  TOOL_POLICY_DECISIONS,
  type ToolPolicy,
  type ToolPolicyDecision,
  type ToolPolicyVerdict,
} from '@agent/protocol';
import { describeValue, errorMessage, isRecord } from '@agent/protocol/util';
import { type ToolNameMatcher, toolNameMatcher } from '@agent/schema';
import { compileCondition, type PolicyCondition } from './tool-policy-condition.js';

/** At most this many rules: each call is checked against them in order. */
export const MAX_POLICY_RULES = 256;

const RULE_NAME = /^[A-Za-z0-9 _.:-]{1,64}$/;
const MAX_REASON_LENGTH = 1000;

/** A policy ready to decide calls: globs and conditions compiled once. */
export interface CompiledToolPolicy {
  /** What the policy decides for one call (a batch's inner calls are decided one by one). */
  decide(callId: string, tool: string, args: Record<string, unknown>): ToolPolicyVerdict;
}

interface CompiledRule {
  index: number;
  name: string;
  matches: ToolNameMatcher;
  condition: PolicyCondition | undefined;
  decision: ToolPolicyDecision;
  reason: string | undefined;
}

/** Compiled policies by the config's object: an agent's policy is compiled when it is defined, once. */
const compiled = new WeakMap<ToolPolicy, CompiledToolPolicy>();

type Problem = (field: string, value: unknown, allowed: string, message?: string) => void;

/**
 * Every problem with `toolPolicy`, each naming the rule (`toolPolicy.rules[2].when`), the value
 * and what is allowed. A valid policy is compiled here and kept for the sessions that run it.
 */
export function toolPolicyProblems(policy: unknown): ConfigError[] {
  if (policy === undefined || compiled.has(policy as ToolPolicy)) return [];
  const problems: ConfigError[] = [];
  const problem: Problem = (field, value, allowed, message) =>
    problems.push(new ConfigError({ field, value, allowed, ...(message === undefined ? {} : { message }) }));
  if (!isRecord(policy)) {
    problem(
      'toolPolicy',
      policy,
      'an object { default?, rules: [{ tools, when?, decision, reason?, name? }] }',
    );
    return problems;
  }
  if (policy.default !== undefined && !isDecision(policy.default))
    problem('toolPolicy.default', policy.default, `one of ${TOOL_POLICY_DECISIONS.join(', ')}`);
  const rules = policy.rules;
  if (!Array.isArray(rules) || rules.length > MAX_POLICY_RULES) {
    const shown = Array.isArray(rules) ? `${rules.length} rules` : rules;
    problem('toolPolicy.rules', shown, `a list of at most ${MAX_POLICY_RULES} rules`);
    return problems;
  }
  const built = rules.map((rule: unknown, index) => compileRule(rule, index, problem));
  if (problems.length === 0) {
    const fallback = (policy.default as ToolPolicyDecision | undefined) ?? 'allow';
    compiled.set(policy as unknown as ToolPolicy, new Policy(built as CompiledRule[], fallback));
  }
  return problems;
}

/** One rule compiled, or undefined with its problems told to `problem`. */
function compileRule(rule: unknown, index: number, problem: Problem): CompiledRule | undefined {
  const at = `toolPolicy.rules[${index}]`;
  if (!isRecord(rule)) {
    problem(at, rule, 'an object { tools, when?, decision, reason?, name? }');
    return undefined;
  }
  const globs = typeof rule.tools === 'string' ? [rule.tools] : rule.tools;
  const matches = isGlobList(globs) ? toolNameMatcher(globs) : undefined;
  if (matches === undefined)
    problem(
      `${at}.tools`,
      rule.tools,
      'a tool-name glob or a non-empty list of them (e.g. "http__post", "fs__*")',
    );
  if (!isDecision(rule.decision))
    problem(`${at}.decision`, rule.decision, `one of ${TOOL_POLICY_DECISIONS.join(', ')}`);
  const { name, reason, when } = rule;
  if (name !== undefined && (typeof name !== 'string' || !RULE_NAME.test(name)))
    problem(`${at}.name`, name, '1-64 letters, digits, spaces, `_`, `.`, `:` or `-`');
  if (reason !== undefined && (typeof reason !== 'string' || reason.length > MAX_REASON_LENGTH))
    problem(`${at}.reason`, reason, `a string of at most ${MAX_REASON_LENGTH} characters`);
  const condition = when === undefined ? undefined : compileCondition(when);
  if (typeof condition === 'string') {
    const message = `${at}.when ${describeValue(when)} is not a valid condition: ${condition}`;
    problem(
      `${at}.when`,
      when,
      "a JMESPath expression over the call's arguments (docs/guardrails.md)",
      message,
    );
  }
  if (matches === undefined || typeof condition === 'string') return undefined;
  return {
    index,
    name: typeof name === 'string' ? name : `rule ${index}`,
    matches,
    condition,
    decision: rule.decision as ToolPolicyDecision,
    reason: typeof reason === 'string' ? reason : undefined,
  };
}

/**
 * The compiled form of a policy the config check accepted (compiled then, or now for a policy
 * that never went through `defineAgent`). Throws the config's problems for one that is invalid.
 */
export function compileToolPolicy(policy: ToolPolicy): CompiledToolPolicy {
  const known = compiled.get(policy);
  if (known !== undefined) return known;
  const problems = toolPolicyProblems(policy);
  if (problems.length > 0) throw ConfigError.of(problems, 'invalid toolPolicy');
  return compiled.get(policy)!;
}

class Policy implements CompiledToolPolicy {
  constructor(
    private readonly rules: readonly CompiledRule[],
    private readonly fallback: ToolPolicyDecision,
  ) {}

  decide(callId: string, tool: string, args: Record<string, unknown>): ToolPolicyVerdict {
    for (const rule of this.rules) {
      if (!rule.matches(tool)) continue;
      let holds = true;
      try {
        holds = rule.condition === undefined || rule.condition.holds(args);
      } catch (error) {
        // Fails closed: a condition that cannot be decided must not let the call through.
        return {
          callId,
          tool,
          decision: 'deny',
          rule: rule.index,
          ruleName: rule.name,
          reason: `the condition of ${rule.name} could not be evaluated on these arguments (${errorMessage(error)})`,
        };
      }
      if (!holds) continue;
      const verdict: ToolPolicyVerdict = {
        callId,
        tool,
        decision: rule.decision,
        rule: rule.index,
        ruleName: rule.name,
      };
      if (rule.reason !== undefined) verdict.reason = rule.reason;
      return verdict;
    }
    return { callId, tool, decision: this.fallback, rule: 'default', ruleName: 'default' };
  }
}

/** The text the model gets for a call the policy denied. */
export function policyDeniedMessage(verdict: ToolPolicyVerdict): string {
  return `denied by policy rule ${verdict.ruleName}: ${verdict.reason ?? 'the tool policy does not allow this call'}`;
}

function isDecision(value: unknown): value is ToolPolicyDecision {
  return TOOL_POLICY_DECISIONS.includes(value as ToolPolicyDecision);
}

function isGlobList(value: unknown): value is readonly string[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((glob) => typeof glob === 'string' && glob.length > 0)
  );
}
