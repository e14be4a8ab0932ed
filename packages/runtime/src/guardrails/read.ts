import { resolve } from 'node:path';
import { guardrail, toolPolicyProblems } from '@agent/core';
import { ConfigError, type JsonSchema, type ToolPolicy, type ToolPolicyDecision } from '@agent/protocol';
import { checkSchema } from '@agent/schema';
import { normaliseDurations } from '../agent-file/ai-agent-forms.js';
import { fileRef } from '../agent-file/file-ref.js';
import { listShorthand } from '../agent-file/list-shorthand.js';
import type { ReferenceScope } from '../agent-file/reference-scope.js';
import { readSchemaFile } from '../agent-file/schema-file.js';
import { type Problem, problem } from '../errors.js';
import { type BuiltinConfig, builtinGuardrail } from './builtin.js';
import type { GuardrailCommon, GuardrailConfig } from './config.js';
import { type GuardrailKind, KIND_ACTIONS } from './frontmatter.js';

/** The options each kind takes, and those it needs. */
const KIND_OPTIONS: Record<GuardrailKind, { allowed: string[]; needs: string[] | 'one' }> = {
  regex: { allowed: ['pattern', 'flags', 'action'], needs: ['pattern'] },
  words: { allowed: ['blocked', 'required', 'caseSensitive', 'action'], needs: 'one' },
  pii: { allowed: ['detect', 'action'], needs: [] },
  max_length: { allowed: ['max', 'unit'], needs: ['max'] },
  json_schema: { allowed: ['schema', 'schemaRef', 'action'], needs: 'one' },
  model: { allowed: ['agent'], needs: ['agent'] },
};

const COMMON_KEYS = ['name', 'on', 'kind', 'tools', 'phases', 'parallel', 'timeoutMs', 'failOpen'];

/** Shorthands of the keys before validation: comma-separated lists, durations. */
export function normaliseGuardrailForms(out: Record<string, unknown>): void {
  if (Array.isArray(out.guardrails)) {
    out.guardrails = out.guardrails.map((entry) => {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return entry;
      const copy: Record<string, unknown> = { ...entry };
      for (const key of ['tools', 'blocked', 'required', 'detect'])
        if (key in copy) copy[key] = listShorthand(copy[key]);
      normaliseDurations(copy, ['timeoutMs']);
      return copy;
    });
  }
  const policy = out.toolPolicy as { rules?: unknown } | undefined;
  if (typeof policy === 'object' && policy !== null && Array.isArray(policy.rules)) {
    out.toolPolicy = {
      ...policy,
      rules: policy.rules.map((rule) =>
        typeof rule === 'object' && rule !== null && 'tools' in rule
          ? { ...rule, tools: listShorthand((rule as { tools: unknown }).tools) }
          : rule,
      ),
    };
  }
}

interface ReadContext {
  file: string;
  dir: string;
  scope: ReferenceScope;
  lineOf: (...keys: (string | number)[]) => number | undefined;
  problems: Problem[];
}

/**
 * The guardrails and tool policy of validated frontmatter data. Each kind's options are checked
 * here (the schema only knows every option any kind takes), with the line of the entry or key.
 */
export function readGuardrails(
  data: Record<string, unknown>,
  ctx: ReadContext,
): { guardrails?: GuardrailConfig[]; toolPolicy?: ToolPolicy } {
  const entries = (data.guardrails as Record<string, unknown>[] | undefined) ?? [];
  const names = new Set<string>();
  const guardrails: GuardrailConfig[] = [];
  entries.forEach((entry, index) => {
    const config = readEntry(entry, index, ctx);
    if (config === undefined) return;
    if (names.has(config.name)) {
      ctx.problems.push(
        problem(
          'configuration',
          ctx.file,
          ctx.lineOf('guardrails', index, 'name'),
          `two guardrails are named \`${config.name}\`: give each a name of its own (events and results name it)`,
        ),
      );
      return;
    }
    names.add(config.name);
    guardrails.push(config);
  });
  const policy = data.toolPolicy as { default?: ToolPolicyDecision; rules: ToolPolicy['rules'] } | undefined;
  // The core's own check (conditions compiled, bounds), so `agent validate` finds what a run would.
  for (const error of toolPolicyProblems(policy))
    ctx.problems.push(
      problem('configuration', ctx.file, ctx.lineOf(...policyPath(error.field)), error.message),
    );
  return {
    ...(guardrails.length === 0 ? {} : { guardrails }),
    ...(policy === undefined ? {} : { toolPolicy: policy }),
  };
}

function readEntry(
  entry: Record<string, unknown>,
  index: number,
  ctx: ReadContext,
): GuardrailConfig | undefined {
  const kind = entry.kind as GuardrailKind;
  const at = (key?: string) =>
    key === undefined ? ctx.lineOf('guardrails', index) : ctx.lineOf('guardrails', index, key);
  const report = (key: string | undefined, message: string) => {
    ctx.problems.push(problem('configuration', ctx.file, at(key), message));
    return undefined;
  };
  const label = `guardrail \`${String(entry.name)}\` (kind ${kind})`;
  const { allowed, needs } = KIND_OPTIONS[kind];
  for (const key of Object.keys(entry)) {
    if (COMMON_KEYS.includes(key) || allowed.includes(key)) continue;
    return report(
      key,
      `${label} does not take \`${key}\`; its options are ${allowed.map((k) => `\`${k}\``).join(', ')}`,
    );
  }
  // `one`: one of the first two options (blocked / required, schema / schemaRef).
  const given = allowed.slice(0, 2).filter((key) => entry[key] !== undefined);
  if (needs === 'one' && given.length === 0)
    return report(
      undefined,
      `${label} needs ${allowed
        .slice(0, 2)
        .map((k) => `\`${k}\``)
        .join(' or ')}`,
    );
  if (needs !== 'one') {
    const missing = needs.find((key) => entry[key] === undefined);
    if (missing !== undefined) return report(undefined, `${label} needs \`${missing}\``);
  }
  const actions = KIND_ACTIONS[kind] ?? [];
  if (entry.action !== undefined && !actions.includes(entry.action as string))
    return report('action', `${label}: \`action\` must be one of ${actions.join(', ')}`);
  const stage = stageProblem(entry);
  if (stage !== undefined) return report(stage.field, `${label}: \`${stage.field}\` is ${stage.allowed}`);
  const line = at();
  const base = { ...entry, ...(line === undefined ? {} : { line }) } as Record<string, unknown>;
  if (kind === 'model') {
    const { agent, ...rest } = base;
    return { ...rest, agent: fileRef(agent as string, ctx.dir, at('agent')) } as GuardrailConfig;
  }
  const config = kind === 'json_schema' ? jsonSchemaEntry(base, label, ctx, at, report) : base;
  if (config === undefined) return undefined;
  // Built once here so what its factory refuses (a pattern RE2 cannot run) is the file's error.
  const refused = factoryProblem(config as unknown as BuiltinConfig);
  if (refused !== undefined)
    return report(refused.field in entry ? refused.field : undefined, `${label}: ${refused.message}`);
  return config as unknown as GuardrailConfig;
}

function factoryProblem(config: BuiltinConfig): { field: string; message: string } | undefined {
  try {
    builtinGuardrail(config);
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError) return { field: error.field, message: error.message };
    throw error;
  }
}

/**
 * What the core's `guardrail()` refuses in the fields every kind shares (a phase of another
 * stage, `tools` off `on: tool`, `parallel` off `on: input`): asked of it, so the rules are one.
 */
function stageProblem(entry: Record<string, unknown>): { field: string; allowed: string } | undefined {
  const { kind: _kind, ...common } = Object.fromEntries(
    Object.entries(entry).filter(([key]) => COMMON_KEYS.includes(key)),
  );
  try {
    guardrail({ ...(common as unknown as GuardrailCommon), check: () => ({ verdict: 'pass' }) });
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError) return { field: error.field, allowed: error.allowed };
    throw error;
  }
}

/** `schema` inline or `schemaRef` to a file (as `output.schemaRef`), checked as a JSON Schema. */
function jsonSchemaEntry(
  entry: Record<string, unknown>,
  label: string,
  ctx: ReadContext,
  at: (key?: string) => number | undefined,
  report: (key: string | undefined, message: string) => undefined,
): Record<string, unknown> | undefined {
  const { schemaRef, schema: inline, ...rest } = entry;
  if (inline !== undefined && schemaRef !== undefined)
    return report('schemaRef', `${label} takes \`schema\` or \`schemaRef\`, not both`);
  const schema =
    typeof schemaRef === 'string'
      ? readSchemaFile(resolve(ctx.dir, schemaRef), schemaRef, { ...ctx, line: at('schemaRef') })
      : (inline as JsonSchema);
  if (schema === undefined) return undefined;
  const check = checkSchema(schema, {
    label: typeof schemaRef === 'string' ? `schema file \`${schemaRef}\`` : `${label}'s \`schema\``,
  });
  if (!check.ok) return report(typeof schemaRef === 'string' ? 'schemaRef' : 'schema', check.message);
  return { ...rest, schema };
}

/** `toolPolicy.rules[2].when` as the keys `lineOf` walks: `toolPolicy`, `rules`, 2, `when`. */
function policyPath(field: string): (string | number)[] {
  return field
    .split(/[.[\]]+/)
    .filter((part) => part !== '')
    .map((part): string | number => (/^\d+$/.test(part) ? Number(part) : part));
}
