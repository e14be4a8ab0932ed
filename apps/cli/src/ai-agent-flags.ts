import { usageError } from './cli-error.js';

// ai-agent's flags that map onto a setting, and those this runtime refuses, for `ai-agent`
// (src/ai-agent.ts). docs/migrating-from-ai-agent.md has the table.

/** ai-agent's per-setting flags and the frontmatter key each sets (the top agent; sub-agents where silent). */
export const SETTING_FLAGS: ReadonlyArray<readonly [flag: string, key: string, what: string]> = [
  ['--temperature <n>', 'temperature', 'sampling temperature (0-2; none: not sent)'],
  ['--top-p <n>', 'topP', 'nucleus sampling (none: not sent)'],
  ['--top-k <n>', 'topK', 'top-k sampling (none: not sent)'],
  ['--repeat-penalty <n>', 'repeatPenalty', 'repeat penalty (none: not sent)'],
  ['--max-output-tokens <n>', 'maxOutputTokens', 'output tokens per turn'],
  ['--max-turns <n>', 'maxTurns', 'turns before the final turn'],
  ['--max-retries <n>', 'maxRetries', 'retries of a failed model call (0: none)'],
  ['--max-tool-calls-per-turn <n>', 'maxToolCallsPerTurn', 'tool calls per turn'],
  ['--llm-timeout-ms <ms>', 'llmTimeout', 'per model call: milliseconds or a duration (5m)'],
  ['--tool-timeout-ms <ms>', 'toolTimeout', 'per tool call: milliseconds or a duration (30s)'],
  ['--tool-response-max-bytes <n>', 'toolResponseMaxBytes', 'tool output kept inline'],
  ['--reasoning <level>', 'reasoning', 'none, minimal, low, medium, high (default: as the file says)'],
  ['--reasoning-tokens <n>', 'reasoningTokens', 'thinking token budget (0: off)'],
  ['--caching <mode>', 'caching', 'Anthropic prompt caching: full or none'],
  ['--cache <ttl>', 'cache', 'response cache TTL: off, ms or a duration (5m, 1h, 1d, 1mo, 1y)'],
];

/** ai-agent's flags this runtime does not take, with what to do instead. */
export const REFUSED_FLAGS: ReadonlyArray<readonly [flag: string, why: string]> = [
  ['--tools <list>', "an agent's MCP servers are what its file lists (`tools:`); edit the agent file"],
  ['--agents <list>', "an agent's sub-agents are what its file lists (`agents:`); edit the agent file"],
  [
    '--sessions-dir <dir>',
    'set `persistence.sessionsDir` in agent.json or .ai-agent.json (session records), or `sessions.path` (resumable sessions)',
  ],
];

/** Commander's attribute name of a flag: `--top-p <n>` -> `topP`. */
export function attribute(flag: string): string {
  return flag
    .replace(/^--/, '')
    .split(' ')[0]!
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Throws a usage error for the first refused flag given, saying why and what to do instead. */
export function refuseUnsupported(options: Record<string, unknown>): void {
  for (const [flag, why] of REFUSED_FLAGS) {
    if (options[attribute(flag)] === undefined) continue;
    throw usageError(`${flag.split(' ')[0]} is not supported by this runtime: ${why}`);
  }
}
