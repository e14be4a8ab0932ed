import { parseDurationMs } from '@agent/protocol/util';
import { type Problem, problem } from '../errors.js';

// The forms ai-agent's files write settings in, turned into this runtime's before validation
// (docs/migrating-from-ai-agent.md). A value that does not parse is left as written, so the
// schema check reports it with what is allowed.

/** Settings that may be `null` / `none`: "do not send this parameter" (reasoning models reject `temperature`). */
export const OMITTABLE_SETTINGS = [
  'temperature',
  'topP',
  'topK',
  'repeatPenalty',
  'maxOutputTokens',
] as const;

const DURATION_SETTINGS = ['llmTimeout', 'toolTimeout', 'advisorTimeout'];
const OMIT_WORDS = new Set(['none', 'null', 'unset', 'off']);

/**
 * Keys this runtime will not take, with why: ignoring them would change what the agent does.
 * ai-agent rejects its runtime-only keys in a file too; the others are its features not built here.
 */
const REFUSED_KEYS: Record<string, string> = {
  plugins:
    'final-report plugins (JavaScript modules) are not supported: this runtime loads no code from agent files; check the report with `output.schema` instead',
  traceLLM: 'is a command-line option (`--trace-llm`), not a frontmatter key',
  traceMCP: 'is a command-line option (`--trace-mcp`), not a frontmatter key',
  verbose: 'is a command-line option (`--verbose`), not a frontmatter key',
  accounting: 'is a command-line option (`--billing-file`), not a frontmatter key',
  save: 'is a command-line option, not a frontmatter key',
  load: 'is a command-line option, not a frontmatter key',
  stream: 'is a command-line option (`--stream` / `--no-stream`), not a frontmatter key',
  targets: 'is a command-line option (`--models`), not a frontmatter key',
};

const SCHEMA_WORDS = [
  'type',
  'properties',
  'required',
  'items',
  '$schema',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
];

/** Turns the duration strings (`5m`) of `keys` into milliseconds; a string that does not parse stays for the schema to report. */
export function normaliseDurations(out: Record<string, unknown>, keys: readonly string[]): void {
  for (const key of keys) {
    if (typeof out[key] !== 'string') continue;
    const ms = parseDurationMs(out[key]);
    if (ms !== undefined) out[key] = ms;
  }
}

/** The setting forms shared by frontmatter and `defaults`: durations, `none`, reasoning words, `reasoningTokens`. */
export function normaliseSettingForms(out: Record<string, unknown>): void {
  normaliseDurations(out, DURATION_SETTINGS);
  for (const key of OMITTABLE_SETTINGS) {
    const value = out[key];
    if (typeof value === 'string' && OMIT_WORDS.has(value.trim().toLowerCase())) out[key] = null;
  }
  if (out.reasoning === null) out.reasoning = 'none';
  if (typeof out.reasoning === 'string') {
    const word = out.reasoning.trim().toLowerCase();
    // `default` / `inherit` / empty: as if not written (the config's defaults apply).
    if (word === 'default' || word === 'inherit' || word === '') delete out.reasoning;
    else out.reasoning = word === 'unset' ? 'none' : word;
  }
  if (typeof out.caching === 'string') out.caching = out.caching.trim().toLowerCase();
  normaliseReasoningTokens(out);
}

/** `reasoningTokens: 16000` is `reasoning.budgetTokens`; `0` turns thinking off. */
function normaliseReasoningTokens(out: Record<string, unknown>): void {
  if (!('reasoningTokens' in out)) return;
  let tokens = out.reasoningTokens;
  if (tokens === null) {
    delete out.reasoningTokens;
    return;
  }
  if (typeof tokens === 'string' && /^\d{1,9}$/.test(tokens.trim())) tokens = Number(tokens.trim());
  if (typeof tokens !== 'number' || !Number.isSafeInteger(tokens) || tokens < 0) return;
  delete out.reasoningTokens;
  const reasoning = typeof out.reasoning === 'string' ? { effort: out.reasoning } : out.reasoning;
  if (tokens === 0) {
    out.reasoning = { effort: 'none' };
    return;
  }
  if (reasoning !== undefined && (typeof reasoning !== 'object' || reasoning === null)) return;
  out.reasoning = { ...(reasoning as object | undefined), budgetTokens: tokens };
}

/**
 * The frontmatter-only forms: `maxToolTurns` (alias of `maxTurns`), a bare JSON Schema under
 * `input`, and the refused keys (each a problem at its line, removed so it is reported once).
 */
export function normaliseFrontmatterForms(
  out: Record<string, unknown>,
  file: string,
  lineOf: (...keys: (string | number)[]) => number | undefined,
  problems: Problem[],
): void {
  for (const [key, why] of Object.entries(REFUSED_KEYS)) {
    if (!(key in out)) continue;
    problems.push(
      problem(
        'configuration',
        file,
        lineOf(key),
        why.startsWith('is ') ? `\`${key}\` ${why}` : `\`${key}\`: ${why}`,
      ),
    );
    delete out[key];
  }
  if ('maxToolTurns' in out) {
    if ('maxTurns' in out && out.maxTurns !== out.maxToolTurns) {
      problems.push(
        problem(
          'configuration',
          file,
          lineOf('maxToolTurns'),
          '`maxToolTurns` is another name for `maxTurns`; set one of them, not both with different values',
        ),
      );
    }
    out.maxTurns = out.maxToolTurns;
    delete out.maxToolTurns;
  }
  const input = out.input;
  if (typeof input === 'object' && input !== null && !Array.isArray(input) && !('format' in input)) {
    if (SCHEMA_WORDS.some((word) => word in input)) out.input = { format: 'json', schema: input };
  }
  normaliseSettingForms(out);
}
