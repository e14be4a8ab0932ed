// The session every contender plays: a maintainer agent with three tools; on each of the first
// TURNS-1 model calls the scripted model calls one tool, whose result is what a real tool
// returns (source lines, grep matches, test output), and the last call reports. The server reads
// the turn from the request itself (tool results already in it), so it keeps no state.
import type { RecordedRequest, ScriptedAnswer } from '@agent/testkit';
import { finalTagOf } from '../agent-loop/script.js';

export const MODEL_OPENAI = 'gpt-4.1-mini';
export const MODEL_ANTHROPIC = 'claude-sonnet-4-5';
export const FINAL_ANSWER = 'The nightly export fails because /var/export is 98% full; rotate old dumps.';
export const PROMPT = 'The nightly export job fails since Monday. Find out why and tell me what to change.';

/** A maintainer's instructions, as long as a real agent's (rules, conventions, how to report). */
export const INSTRUCTIONS = [
  'You are the maintainer on call for the export service, a TypeScript monorepo that dumps the billing database to compressed files every night and uploads them to object storage.',
  'Work from evidence. Before you say why something fails, read the code that fails and the logs or test output that show it; quote the lines that matter with their paths and line numbers.',
  'Use read_file to read a file (a path relative to the repository root, optionally a line range), grep to find where something is defined or used (a regular expression, optionally a folder), and run_tests to run the test suite of one package or a filter of test names.',
  'Prefer one precise tool call to several broad ones. Never guess a path: grep for it first. Never run the whole test suite when a filter will do; it takes twenty minutes.',
  'The repository follows these conventions: packages under packages/, one concern per file, errors that say what was wrong and what is allowed, no console output from library code, configuration validated at startup with the offending key named.',
  'The export job runs as a cron job at 02:00 UTC on the worker fleet; its logs go to /var/log/export/ and its temporary files to /var/export before upload. Disk quotas are enforced per volume.',
  'When you find the cause, say it in one sentence first, then the evidence (paths, lines, output), then the smallest change that fixes it and how to verify the fix. Do not change code yourself: this is a diagnosis.',
  'If the evidence is not conclusive, say what you checked, what you ruled out and what you would look at next. Never present a guess as a finding.',
  'Keep the report short: the on-call engineer reads it on a phone. No Markdown tables; plain sentences and short lists are fine.',
].join('\n\n');

export const TOOLS = [
  {
    name: 'read_file',
    description: 'Read a file of the repository, with line numbers.',
    properties: { path: { type: 'string', description: 'Path relative to the repository root.' } },
  },
  {
    name: 'grep',
    description: 'Search the repository for a regular expression; matches with path and line.',
    properties: { pattern: { type: 'string', description: 'The regular expression.' } },
  },
  {
    name: 'run_tests',
    description: 'Run the tests whose names match a filter; the runner output.',
    properties: { filter: { type: 'string', description: 'A test-name filter.' } },
  },
] as const;

export type ToolName = (typeof TOOLS)[number]['name'];

/** The tool the model calls on `turn` (1-based), and its argument. */
export function callOf(turn: number): { name: ToolName; arguments: Record<string, string> } {
  const tool = TOOLS[(turn - 1) % TOOLS.length]!;
  const value = `${['src/export/job', 'quota|ENOSPC', 'export'][(turn - 1) % 3]}-${turn}`;
  return { name: tool.name, arguments: { [Object.keys(tool.properties)[0]!]: value } };
}

const pad = (n: number) => String(n).padStart(3, ' ');

/** What the tool returns: 300-560 o200k tokens of what such a tool really prints. */
export function toolResult(name: string, argument: string): string {
  const lines: string[] = [];
  if (name === 'read_file') {
    lines.push(`${argument}.ts (lines 1-20 of 164)`);
    for (let i = 1; i <= 20; i++)
      lines.push(
        `${pad(i)}  const chunk${i} = await writer.write(rows.slice(${i * 500}, ${(i + 1) * 500})); // ${argument}`,
      );
  } else if (name === 'grep') {
    for (let i = 1; i <= 14; i++)
      lines.push(
        `packages/export/src/${['job', 'writer', 'upload'][i % 3]}.ts:${i * 7}: if (error.code === 'ENOSPC') throw new QuotaError(volume, ${i}); // ${argument}`,
      );
  } else {
    lines.push(`$ vitest run -t "${argument}"`);
    for (let i = 1; i <= 12; i++)
      lines.push(` ✓ packages/export/test/${argument}-${i}.test.ts > writes part ${i} (${i * 13} ms)`);
    lines.push(' × packages/export/test/quota.test.ts > fails clearly when the volume is full');
    lines.push('   Error: ENOSPC: no space left on device, write /var/export/billing-2026-11-29.part');
    lines.push(' Tests  1 failed | 12 passed (13)');
  }
  return lines.join('\n');
}

/** The answer to a request of a session of `turns` model calls. */
export function answerFor(request: RecordedRequest, turns: number): ScriptedAnswer {
  const results = request.messages.filter((message) => message.role === 'tool').length;
  const turn = results + 1;
  if (turn < turns) return { toolCalls: [callOf(turn)] };
  const tag = finalTagOf(request.messages);
  const text =
    tag === undefined
      ? FINAL_ANSWER
      : `<${tag} tool="agent__final_report" status="success" format="text">${FINAL_ANSWER}</${tag}>`;
  return { text: [text] };
}
