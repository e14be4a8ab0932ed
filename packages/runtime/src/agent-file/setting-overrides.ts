import { parseTtl } from '@agent/cache';
import { ConfigError } from '@agent/protocol';
import { describeValue } from '@agent/protocol/util';
import { problem, problemsError } from '../errors.js';
import { settings } from '../validators/own-validators.generated.js';
import { normaliseSettingForms } from './ai-agent-forms.js';
import { coreSettingProblems } from './core-settings.js';
import { type AgentSettings, pickSettings } from './settings.js';
import { schemaProblems } from './validate.js';

/**
 * Settings given on the command line (`--override key=value`, `--temperature 0.2`), in the
 * frontmatter's terms and forms (`llmTimeout: 5m`, `temperature: none`, `maxToolTurns`).
 * Throws a configuration `RuntimeError` naming `label` and the key for a value or key that
 * is not allowed (the closest valid key is suggested).
 */
export function readSettingValues(values: Record<string, unknown>, label: string): AgentSettings {
  const data = { ...values };
  if ('maxToolTurns' in data) {
    data.maxTurns ??= data.maxToolTurns;
    delete data.maxToolTurns;
  }
  normaliseSettingForms(data);
  if (typeof data.reasoning === 'string') data.reasoning = { effort: data.reasoning };
  const problems = schemaProblems(settings, data, { file: label, locator: undefined });
  if (problems.length === 0) problems.push(...coreSettingProblems(data, { file: label, base: [] }));
  if (problems.length > 0) throw problemsError(problems);
  return pickSettings(data);
}

/** The settings of a run beside the agent files'. */
export interface RunSettings {
  /** `--override`: beat every agent file of the tree. */
  all?: AgentSettings;
  /** The per-setting flags: beat the top agent's file; sub-agents take them where their file is silent. */
  top?: AgentSettings;
  /**
   * The response cache TTL in ms (`cache`, a frontmatter key, not a setting): `all` from
   * `--override cache=1h` beats every file; `top` from ai-agent's `--cache 1h` beats the top
   * agent's file and fills in a sub-agent's whose file has no `cache`.
   */
  cacheTtlMs?: { all?: number; top?: number };
  /** `--override stream=false` (ai-agent's `--no-stream`): every model call of the tree. */
  stream?: boolean;
}

/**
 * `--override` (every agent) and the per-setting flags (the top agent) as `RunSettings`: `cache`
 * and `stream` are taken out first (they are not frontmatter settings), the rest is checked by
 * `readSettingValues`. Throws a configuration `RuntimeError` naming the flag for a bad value.
 */
export function readRunSettings(options: {
  overrides?: Record<string, unknown>;
  settings?: Record<string, unknown>;
}): RunSettings {
  const run: RunSettings = {};
  const cacheTtlMs: { all?: number; top?: number } = {};
  if (options.overrides !== undefined) {
    const { cache, stream, ...rest } = options.overrides;
    if (cache !== undefined) cacheTtlMs.all = readTtl(cache, '--override');
    if (stream !== undefined) run.stream = readStream(stream);
    run.all = readSettingValues(rest, '--override');
  }
  if (options.settings !== undefined) {
    const { cache, ...rest } = options.settings;
    if (cache !== undefined) cacheTtlMs.top = readTtl(cache, 'command line');
    run.top = readSettingValues(rest, 'command line');
  }
  if (Object.keys(cacheTtlMs).length > 0) run.cacheTtlMs = cacheTtlMs;
  return run;
}

function readTtl(value: unknown, label: string): number {
  try {
    return parseTtl(value, 'cache');
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw problemsError([
      problem(
        'configuration',
        label,
        undefined,
        `\`cache\` must be ${error.allowed}, got ${describeValue(value)}`,
      ),
    ]);
  }
}

function readStream(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  throw problemsError([
    problem(
      'configuration',
      '--override',
      undefined,
      `\`stream\` must be true or false, got ${describeValue(value)}`,
    ),
  ]);
}

/** The response cache TTL of one agent's session, ms (0: not cached); see `RunSettings.cacheTtlMs`. */
export function effectiveCacheTtl(
  run: RunSettings | undefined,
  definition: { cacheTtlMs: number; cacheWritten: boolean },
  depth: number,
): number {
  const flags = run?.cacheTtlMs;
  if (flags?.all !== undefined) return flags.all;
  if (flags?.top !== undefined && (depth === 0 || !definition.cacheWritten)) return flags.top;
  return definition.cacheTtlMs;
}
