#!/usr/bin/env node
import { Command, Option } from 'commander';
import { usageError } from './cli-error.js';
import { listToolsCommand } from './commands/list-tools.js';
import { runCommand } from './commands/run.js';
import { collect, settingValue } from './commands/run-options.js';
import { validateCommand } from './commands/validate.js';
import type { CliExitCode } from './exit-codes.js';
import { processIo } from './io.js';
import { runMain, version } from './main.js';

// `ai-agent`: netdata's ai-agent command line, so its `#!/usr/bin/env ai-agent` files and
// scripts run here as written (docs/migrating-from-ai-agent.md). It maps onto `agent run`,
// `agent validate` (--dry-run) and its own tool listing (--list-tools).

/** ai-agent's per-setting flags and the frontmatter key each sets. */
const SETTING_FLAGS: ReadonlyArray<readonly [flag: string, key: string, what: string]> = [
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
];

const attribute = (flag: string) =>
  flag
    .replace(/^--/, '')
    .split(' ')[0]!
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

function buildProgram(setCode: (code: CliExitCode) => void): Command {
  const io = processIo();
  const program = new Command('ai-agent')
    .description(
      "Run ai-agent's .ai files and flags on this runtime (see `agent --help` for the native CLI).",
    )
    .version(version(), '-V, --version')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .argument(
      '[args...]',
      'the agent file (when --agent is absent, as a #!/usr/bin/env ai-agent file runs) and the prompt',
    )
    .option('--agent <file.ai>', 'the agent file')
    .option('--models <list>', 'provider/model list, comma-separated, in fallback order (every agent)')
    .option(
      '--schema <schema>',
      'JSON Schema of the report: inline JSON or @file.json (implies --format json)',
    )
    .option('--format <format>', 'output format of the report')
    .option('--override <key=value>', 'a setting for every agent, repeatable', collect)
    .option('--config <file>', 'config file (.ai-agent.json or agent.json)')
    .option('--dry-run', 'check the agent, its sub-agents and the config without running (agent validate)')
    .option('--list-tools', "list the agent's tools: server, name, description (after every filter)")
    .option('--billing-file <file.jsonl>', 'append every accounting entry to FILE as one JSON line')
    .option('--quiet', 'print only the report (the default here)')
    .option('--verbose', 'log every LLM and tool step on stderr')
    .option('--trace-llm', 'log LLM requests and responses')
    .option('--trace-mcp', 'log MCP traffic');
  for (const [flag, , what] of SETTING_FLAGS) program.addOption(new Option(flag, what));
  program.action(async (args: string[], options: Record<string, unknown>) => {
    const [file, prompt] = agentAndPrompt(args, options.agent as string | undefined);
    const config = options.config as string | undefined;
    if (options.dryRun === true) {
      setCode(await validateCommand([file], config === undefined ? {} : { config }, io));
      return;
    }
    if (options.listTools === true) {
      setCode(await listToolsCommand(file, config === undefined ? {} : { config }, io));
      return;
    }
    const settings: Record<string, unknown> = {};
    for (const [flag, key] of SETTING_FLAGS) {
      const value = options[attribute(flag)];
      // `default` / `inherit`: as the agent file says (ai-agent's way to clear a flag).
      if (typeof value === 'string' && !['default', 'inherit'].includes(value))
        settings[key] = settingValue(value);
    }
    const models = typeof options.models === 'string' ? options.models.split(',').map((m) => m.trim()) : [];
    setCode(
      await runCommand({
        file,
        prompt,
        io,
        options: {
          ...(models.length === 0 ? {} : { model: models.filter((m) => m !== '') }),
          ...pick(options, [
            'format',
            'schema',
            'config',
            'override',
            'verbose',
            'quiet',
            'traceLlm',
            'traceMcp',
          ]),
          ...(typeof options.billingFile === 'string' ? { accounting: options.billingFile } : {}),
          ...(Object.keys(settings).length === 0 ? {} : { settings }),
        },
      }),
    );
  });
  return program;
}

function agentAndPrompt(args: string[], agent: string | undefined): [string, string | undefined] {
  const rest = agent === undefined ? args.slice(1) : args;
  const file = agent ?? args[0];
  if (file === undefined) throw usageError('an agent file is required: ai-agent --agent FILE.ai "prompt"');
  if (rest.length > 1)
    throw usageError(`one prompt argument is expected, got ${rest.length} (quote the prompt)`);
  return [file, rest[0]];
}

function pick(options: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(
    keys.filter((key) => options[key] !== undefined).map((key) => [key, options[key]]),
  );
}

runMain('ai-agent', async (setCode) => {
  await buildProgram(setCode).parseAsync(process.argv.slice(2), { from: 'user' });
});
