import { isOutputFormat } from '@agent/protocol';
import type { AgentSessionConfig } from './config.js';
import { retryBackoffProblems } from './loop/retry-delay.js';

function positiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1;
}

/** Every problem with a session config, each saying what was wrong and what is allowed. */
export function validateConfig(config: AgentSessionConfig): string[] {
  const problems: string[] = [];
  if (!Array.isArray(config.targets) || config.targets.length === 0) {
    problems.push('targets must list at least one model client');
  } else {
    config.targets.forEach((target, index) => {
      if (typeof target?.client?.stream !== 'function')
        problems.push(`targets[${index}].client must be a ModelClient with a stream() method`);
    });
  }
  if (typeof config.userPrompt !== 'string') problems.push('userPrompt must be a string');
  const format = config.expectedOutput?.format;
  if (format !== undefined && !isOutputFormat(format)) {
    problems.push(
      `expectedOutput.format "${String(format)}" is not one of json, markdown, markdown+mermaid, slack-block-kit, tty, pipe, sub-agent, text`,
    );
  }
  const schema = config.expectedOutput?.schema;
  if (schema !== undefined && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) {
    problems.push('expectedOutput.schema must be a JSON Schema object');
  }
  for (const key of [
    'maxTurns',
    'maxRetries',
    'maxToolCallsPerTurn',
    'llmTimeout',
    'toolTimeout',
    'toolResponseMaxBytes',
    'contextWindow',
  ] as const) {
    const value = config[key];
    if (value !== undefined && !positiveInteger(value))
      problems.push(`${key} must be a positive integer, got ${JSON.stringify(value)}`);
  }
  if (
    config.temperature !== undefined &&
    (typeof config.temperature !== 'number' || config.temperature < 0 || config.temperature > 2)
  ) {
    problems.push(`temperature must be a number from 0 to 2, got ${JSON.stringify(config.temperature)}`);
  }
  if (config.topP !== undefined && (typeof config.topP !== 'number' || config.topP <= 0 || config.topP > 1)) {
    problems.push(`topP must be a number above 0 and at most 1, got ${JSON.stringify(config.topP)}`);
  }
  problems.push(...retryBackoffProblems(config.retryBackoff));
  return problems;
}
