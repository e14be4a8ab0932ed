import { ConfigError, isOutputFormat, OUTPUT_FORMATS } from '@agent/protocol';
import { isPositiveInteger, isRecord } from '@agent/protocol/util';
import { compactionProblems } from './compaction/settings.js';
import type { AgentConfig, AgentSessionConfig } from './config.js';
import { exchangesProblem } from './context/conversation-fit.js';
import { toolPolicyProblems } from './guardrails/tool-policy.js';
import { retryBackoffProblems } from './loop/retry-delay.js';
import { toolSearchProblems } from './tool-search/settings.js';
import { internalToolsProblem } from './tools/internal-tool-choice.js';
import { isTool } from './tools/tool.js';

/**
 * Keys of the config before 0.2, and what replaced them: named in the error, never silently
 * ignored. Seed 002's own names (`targets`, `systemPrompt`, ...) are accepted instead
 * (`seed-config.ts`).
 */
const RENAMED: Record<string, string> = {
  agentName: 'name',
  nonce: 'internal.nonce',
  now: 'internal.now',
  sleep: 'internal.sleep',
};

/** `RENAMED` as pairs, listed once (not per session). */
const RENAMED_ENTRIES = Object.entries(RENAMED);

const POSITIVE_INTEGER_KEYS = [
  'maxTurns',
  'maxRetries',
  'maxToolCallsPerTurn',
  'llmTimeoutMs',
  'toolTimeoutMs',
  'toolResponseMaxBytes',
  'contextWindow',
  'topK',
] as const;

/** The longest wait a timer can make (about 24.8 days); a longer one would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

const MODEL_ALLOWED =
  'a ModelClient (e.g. model("openai/gpt-4.1-mini") of @agent/providers) or { client, contextWindow? }';

function problem(field: string, value: unknown, allowed: string, message?: string): ConfigError {
  return new ConfigError({ field, value, allowed, ...(message === undefined ? {} : { message }) });
}

function modelProblems(config: AgentConfig): ConfigError[] {
  if (config.model !== undefined && config.models !== undefined) {
    return [problem('models', config.models, 'absent when model is given', 'give model or models, not both')];
  }
  if (config.models === undefined && config.model === undefined) {
    return [problem('model', undefined, `${MODEL_ALLOWED}, or models a non-empty list of them`)];
  }
  if (config.models !== undefined && (!Array.isArray(config.models) || config.models.length === 0)) {
    return [problem('models', config.models, `a non-empty list of ${MODEL_ALLOWED}`)];
  }
  const entries: [string, unknown][] =
    config.models === undefined
      ? [['model', config.model]]
      : config.models.map((entry, index) => [`models[${index}]`, entry]);
  const problems: ConfigError[] = [];
  for (const [field, entry] of entries) {
    if (typeof entry === 'string') {
      const message = `${field} is the string ${JSON.stringify(entry)}: @agent/core takes a ModelClient; make one with model(${JSON.stringify(entry)}) of @agent/providers`;
      problems.push(problem(field, entry, MODEL_ALLOWED, message));
      continue;
    }
    const client = isRecord(entry) && typeof entry.stream !== 'function' ? entry.client : entry;
    if (!isRecord(client) || typeof client.stream !== 'function')
      problems.push(problem(field, entry, MODEL_ALLOWED));
  }
  return problems;
}

function toolProblems(tools: unknown): ConfigError[] {
  if (tools === undefined) return [];
  const allowed =
    'a tool({ name, description, parameters, execute }) or a ToolProvider (listTools and execute)';
  if (!Array.isArray(tools)) return [problem('tools', tools, `a list of which each is ${allowed}`)];
  const problems: ConfigError[] = [];
  tools.forEach((entry: unknown, index) => {
    if (isTool(entry)) return;
    if (isRecord(entry) && typeof entry.listTools === 'function' && typeof entry.execute === 'function')
      return;
    problems.push(problem(`tools[${index}]`, entry, allowed));
  });
  return problems;
}

/** Every problem with an agent's definition, each naming the setting, the value and what is allowed. */
export function agentProblems(config: AgentConfig): ConfigError[] {
  if (typeof config !== 'object' || config === null) return [problem('config', config, 'an object')];
  const problems: ConfigError[] = [];
  for (const [old, replacement] of RENAMED_ENTRIES) {
    if (old in config)
      problems.push(problem(old, undefined, 'absent', `${old} is no longer a setting: use ${replacement}`));
  }
  problems.push(...modelProblems(config), ...toolProblems(config.tools));
  if (config.instructions !== undefined && typeof config.instructions !== 'string')
    problems.push(problem('instructions', config.instructions, 'a string'));
  if (config.output !== undefined && !isOutputFormat(config.output?.format)) {
    problems.push(problem('output.format', config.output?.format, `one of ${OUTPUT_FORMATS.join(', ')}`));
  }
  const schema = config.output?.schema;
  if (schema !== undefined && !isRecord(schema) && typeof schema !== 'function') {
    problems.push(
      problem(
        'output.schema',
        schema,
        'a JSON Schema object or a Standard JSON Schema (zod 4, arktype, ...)',
      ),
    );
  }
  const statusOptional = config.output?.statusOptional;
  if (statusOptional !== undefined && typeof statusOptional !== 'boolean')
    problems.push(problem('output.statusOptional', statusOptional, 'true or false'));
  if (config.reportBack !== undefined && typeof config.reportBack !== 'boolean')
    problems.push(problem('reportBack', config.reportBack, 'a boolean'));
  if (config.answerFromLastMessage !== undefined && typeof config.answerFromLastMessage !== 'boolean')
    problems.push(problem('answerFromLastMessage', config.answerFromLastMessage, 'a boolean'));
  const internal = internalToolsProblem(config.internalTools);
  if (internal !== undefined) problems.push(problem('internalTools', config.internalTools, internal));
  for (const key of POSITIVE_INTEGER_KEYS) {
    const value = config[key];
    if (value !== undefined && !isPositiveInteger(value))
      problems.push(problem(key, value, 'a positive integer'));
  }
  problems.push(...samplingProblems(config));
  problems.push(...retryBackoffProblems(config.retryBackoff));
  problems.push(...toolPolicyProblems(config.toolPolicy));
  problems.push(...compactionProblems(config.compaction));
  problems.push(...toolSearchProblems(config.toolSearch));
  return problems;
}

/** Number ranges of the sampling settings (`topK` is a positive integer, checked above). */
function samplingProblems(config: AgentConfig): ConfigError[] {
  const problems: ConfigError[] = [];
  const { temperature, topP, repeatPenalty } = config;
  const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
  if (temperature !== undefined && (!isNumber(temperature) || temperature < 0 || temperature > 2)) {
    problems.push(problem('temperature', temperature, 'a number from 0 to 2'));
  }
  if (topP !== undefined && (!isNumber(topP) || topP <= 0 || topP > 1)) {
    problems.push(problem('topP', topP, 'a number above 0 and at most 1'));
  }
  if (repeatPenalty !== undefined && (!isNumber(repeatPenalty) || repeatPenalty <= 0 || repeatPenalty > 2)) {
    problems.push(problem('repeatPenalty', repeatPenalty, 'a number above 0 and at most 2 (1 = no penalty)'));
  }
  return problems;
}

/** Every problem with a session config: the agent's, then the run's. */
export function validateConfig(config: AgentSessionConfig): ConfigError[] {
  const problems = agentProblems(config);
  if (typeof config !== 'object' || config === null) return problems;
  // A resumed session continues its snapshot's conversation: it takes no prompt.
  if (typeof config.prompt !== 'string' && config.resumeFrom === undefined)
    problems.push(problem('prompt', config.prompt, 'a string'));
  if (config.history !== undefined && !Array.isArray(config.history))
    problems.push(problem('history', config.history, 'a list of conversation messages'));
  const exchanges = exchangesProblem(config.exchanges);
  if (exchanges !== undefined) problems.push(problem('exchanges', config.exchanges, exchanges));
  for (const key of ['onEvent', 'observe', 'onCheckpoint', 'onJournal'] as const) {
    if (config[key] !== undefined && typeof config[key] !== 'function')
      problems.push(problem(key, config[key], 'a function'));
  }
  problems.push(...journalProblems(config));
  const wait = config.approvalTimeoutMs;
  if (wait !== undefined && (!isPositiveInteger(wait) || wait > MAX_TIMER_MS))
    problems.push(
      problem('approvalTimeoutMs', wait, `a positive integer of milliseconds up to ${MAX_TIMER_MS}`),
    );
  return problems;
}

/** The journal a resumed session replays: a list, and only with the snapshot it follows. */
function journalProblems(config: AgentSessionConfig): ConfigError[] {
  const journal = config.resumeJournal;
  if (journal === undefined) return [];
  if (!Array.isArray(journal))
    return [problem('resumeJournal', journal, 'a list of turn journal entries (what onJournal got)')];
  if (config.resumeFrom === undefined)
    return [
      problem(
        'resumeJournal',
        `${journal.length} entries`,
        'a journal given with resumeFrom, the snapshot it was written after',
        'resumeJournal is replayed on the snapshot it follows: give resumeFrom too',
      ),
    ];
  return [];
}
