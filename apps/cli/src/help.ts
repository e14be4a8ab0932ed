import { CLI_EXIT, type CliExitCode, EXIT_CODE_HELP } from './exit-codes.js';

/** Variables the CLI and the runtime read, for `--help`. */
const ENVIRONMENT: ReadonlyArray<readonly [string, string]> = [
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the config file's own syntax.
  ['${NAME}', 'a variable a config file names, e.g. "${OPENAI_API_KEY}" (a .env beside it first)'],
  ['XDG_CONFIG_HOME', 'user config: $XDG_CONFIG_HOME/agent/agent.json (default ~/.config/agent)'],
  ['XDG_STATE_HOME', 'MCP OAuth tokens: $XDG_STATE_HOME/agent/mcp-auth (default ~/.local/state/agent)'],
  ['XDG_CACHE_HOME', 'the answer cache: $XDG_CACHE_HOME/agent/cache.sqlite (default ~/.cache/agent)'],
  ['NO_COLOR', 'set and not empty: no colours, no Markdown rendering (so does TERM=dumb)'],
  ['TMPDIR', 'where oversized tool outputs are kept while a run lasts'],
  ['AGENT_EXAMPLES_DIR', 'the directory holding demo/ for `agent demo`'],
];

const EXAMPLES = [
  'agent run ask.ai "What changed in the last release?"',
  'git diff | agent review.ai --model openai/gpt-4o-mini --format json > review.json',
];

function table(rows: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(...rows.map(([key]) => key.length));
  return rows.map(([key, text]) => `  ${key.padEnd(width)}  ${text}`).join('\n');
}

/** The text `agent --help` and `agent run --help` end with: exit codes, environment, examples. */
export function helpEpilogue(): string {
  const codes = (Object.values(CLI_EXIT) as CliExitCode[])
    .sort((a, b) => a - b)
    .map((code) => [String(code), EXIT_CODE_HELP[code]] as const);
  return [
    '',
    'Exit codes:',
    table(codes),
    '',
    'Environment:',
    table(ENVIRONMENT),
    '',
    'Examples:',
    ...EXAMPLES.map((example) => `  ${example}`),
    '',
  ].join('\n');
}
