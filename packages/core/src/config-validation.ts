import { isOutputFormat, OUTPUT_FORMATS } from '@agent/protocol';
import type { AgentConfig, AgentSessionConfig } from './config.js';
import { retryBackoffProblems } from './loop/retry-delay.js';
import { isTool } from './tools/tool.js';

function positiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keys of the config before 0.2, and what replaced them: named in the error, never silently ignored. */
const RENAMED: Record<string, string> = {
  targets: 'model (one) or models (a fallback list)',
  systemPrompt: 'instructions',
  userPrompt: 'prompt (or run(agent, prompt))',
  conversationHistory: 'history (or run(agent, { prompt, history }))',
  expectedOutput: 'output',
  callbacks: 'onEvent',
  llmTimeout: 'llmTimeoutMs',
  toolTimeout: 'toolTimeoutMs',
  agentName: 'name',
  nonce: 'internal.nonce',
  now: 'internal.now',
  sleep: 'internal.sleep',
};

const POSITIVE_INTEGER_KEYS = [
  'maxTurns',
  'maxRetries',
  'maxToolCallsPerTurn',
  'llmTimeoutMs',
  'toolTimeoutMs',
  'toolResponseMaxBytes',
  'contextWindow',
] as const;

function modelProblems(config: AgentConfig): string[] {
  if (config.model !== undefined && config.models !== undefined) {
    return ['give model or models, not both'];
  }
  const given = config.models ?? (config.model === undefined ? undefined : [config.model]);
  const where = config.models === undefined ? 'model' : 'models';
  if (given === undefined || (Array.isArray(given) && given.length === 0)) {
    return [
      'model must be a ModelClient (e.g. model("openai/gpt-4.1-mini") of @agent/providers), or models a non-empty list of them',
    ];
  }
  if (!Array.isArray(given))
    return ['models must be a list of ModelClients or { client, contextWindow? } targets'];
  const problems: string[] = [];
  given.forEach((entry: unknown, index) => {
    const at = config.models === undefined ? where : `${where}[${index}]`;
    if (typeof entry === 'string') {
      problems.push(
        `${at} is the string ${JSON.stringify(entry)}: @agent/core takes a ModelClient; make one with model(${JSON.stringify(entry)}) of @agent/providers`,
      );
      return;
    }
    const client = isRecord(entry) && typeof entry.stream !== 'function' ? entry.client : entry;
    if (!isRecord(client) || typeof client.stream !== 'function')
      problems.push(`${at} must be a ModelClient with a stream() method, or { client: ModelClient, ... }`);
  });
  return problems;
}

function toolProblems(tools: unknown): string[] {
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) return ['tools must be a list of tool()s and ToolProviders'];
  const problems: string[] = [];
  tools.forEach((entry: unknown, index) => {
    if (isTool(entry)) return;
    if (isRecord(entry) && typeof entry.listTools === 'function' && typeof entry.execute === 'function')
      return;
    problems.push(
      `tools[${index}] must be a tool({ name, description, parameters, execute }) or a ToolProvider (listTools and execute)`,
    );
  });
  return problems;
}

/** Every problem with an agent's definition, each saying what was wrong and what is allowed. */
export function agentProblems(config: AgentConfig): string[] {
  if (typeof config !== 'object' || config === null) return ['the agent config must be an object'];
  const problems: string[] = [];
  for (const [old, replacement] of Object.entries(RENAMED)) {
    if (old in config) problems.push(`${old} is no longer a setting: use ${replacement}`);
  }
  problems.push(...modelProblems(config), ...toolProblems(config.tools));
  if (config.instructions !== undefined && typeof config.instructions !== 'string')
    problems.push('instructions must be a string');
  const format = config.output?.format;
  if (config.output !== undefined && !isOutputFormat(format)) {
    problems.push(`output.format ${JSON.stringify(format)} is not one of ${OUTPUT_FORMATS.join(', ')}`);
  }
  const schema = config.output?.schema;
  if (schema !== undefined && !isRecord(schema) && typeof schema !== 'function') {
    problems.push(
      'output.schema must be a JSON Schema object or a Standard JSON Schema (zod 4, arktype, ...)',
    );
  }
  for (const key of POSITIVE_INTEGER_KEYS) {
    const value = config[key];
    if (value !== undefined && !positiveInteger(value))
      problems.push(`${key} must be a positive integer, got ${JSON.stringify(value)}`);
  }
  const { temperature, topP } = config;
  if (temperature !== undefined && (typeof temperature !== 'number' || temperature < 0 || temperature > 2)) {
    problems.push(`temperature must be a number from 0 to 2, got ${JSON.stringify(temperature)}`);
  }
  if (topP !== undefined && (typeof topP !== 'number' || topP <= 0 || topP > 1)) {
    problems.push(`topP must be a number above 0 and at most 1, got ${JSON.stringify(topP)}`);
  }
  problems.push(...retryBackoffProblems(config.retryBackoff));
  return problems;
}

/** Every problem with a session config: the agent's, then the run's. */
export function validateConfig(config: AgentSessionConfig): string[] {
  const problems = agentProblems(config);
  if (typeof config !== 'object' || config === null) return problems;
  if (typeof config.prompt !== 'string') problems.push('prompt must be a string');
  if (config.history !== undefined && !Array.isArray(config.history))
    problems.push('history must be a list of conversation messages');
  if (config.onEvent !== undefined && typeof config.onEvent !== 'function')
    problems.push('onEvent must be a function');
  return problems;
}
