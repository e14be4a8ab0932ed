import { ConfigError, isOutputFormat, OUTPUT_FORMATS } from '@agent/protocol';
import { isPositiveInteger, isRecord } from '@agent/protocol/util';
import type { AgentSessionConfig } from './config.js';
import { retryBackoffProblems } from './loop/retry-delay.js';

const POSITIVE_INTEGER_KEYS = [
  'maxTurns',
  'maxRetries',
  'maxToolCallsPerTurn',
  'llmTimeout',
  'toolTimeout',
  'toolResponseMaxBytes',
  'contextWindow',
] as const;

function problem(field: string, value: unknown, allowed: string): ConfigError {
  return new ConfigError({ field, value, allowed });
}

function targetProblems(targets: unknown): ConfigError[] {
  if (!Array.isArray(targets) || targets.length === 0) {
    return [problem('targets', targets, 'a list of at least one model target')];
  }
  const problems: ConfigError[] = [];
  targets.forEach((target: { client?: { stream?: unknown } } | undefined, index) => {
    if (typeof target?.client?.stream !== 'function')
      problems.push(
        problem(`targets[${index}].client`, target?.client, 'a ModelClient with a stream() method'),
      );
  });
  return problems;
}

/** Every problem with a session config, each naming the setting, the value and what is allowed. */
export function validateConfig(config: AgentSessionConfig): ConfigError[] {
  const problems = targetProblems(config.targets);
  if (typeof config.userPrompt !== 'string')
    problems.push(problem('userPrompt', config.userPrompt, 'a string'));
  const format = config.expectedOutput?.format;
  if (format !== undefined && !isOutputFormat(format)) {
    problems.push(problem('expectedOutput.format', format, `one of ${OUTPUT_FORMATS.join(', ')}`));
  }
  const schema = config.expectedOutput?.schema;
  if (schema !== undefined && !isRecord(schema)) {
    problems.push(problem('expectedOutput.schema', schema, 'a JSON Schema object'));
  }
  for (const key of POSITIVE_INTEGER_KEYS) {
    const value = config[key];
    if (value !== undefined && !isPositiveInteger(value))
      problems.push(problem(key, value, 'a positive integer'));
  }
  const { temperature, topP } = config;
  if (temperature !== undefined && (typeof temperature !== 'number' || temperature < 0 || temperature > 2)) {
    problems.push(problem('temperature', temperature, 'a number from 0 to 2'));
  }
  if (topP !== undefined && (typeof topP !== 'number' || topP <= 0 || topP > 1)) {
    problems.push(problem('topP', topP, 'a number above 0 and at most 1'));
  }
  problems.push(...retryBackoffProblems(config.retryBackoff));
  return problems;
}
