#!/usr/bin/env node
import { Command, Option } from 'commander';
import { attribute, REFUSED_FLAGS, refuseUnsupported, SETTING_FLAGS } from './ai-agent-flags.js';
import { usageError } from './cli-error.js';
import { listToolsCommand } from './commands/list-tools.js';
import { resumeCommand } from './commands/resume.js';
import { runCommand } from './commands/run.js';
import { collect, modelList, settingValue } from './commands/run-options.js';
import { validateCommand } from './commands/validate.js';
import type { CliExitCode } from './exit-codes.js';
import { processIo } from './io.js';
import { runMain, version } from './main.js';

// `ai-agent`: netdata's ai-agent command line, so its `#!/usr/bin/env ai-agent` files and
// scripts run here as written (docs/migrating-from-ai-agent.md). It maps onto `agent run`,
// `agent validate` (--dry-run) and its own tool listing (--list-tools).

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
    .option('--models <list>', "provider/model list, comma-separated, in fallback order (the top agent's)")
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
    .option('--stream', 'stream model answers (the default)')
    .option('--no-stream', 'ask every model call for a whole answer instead of a stream')
    .option('--resume <session-id>', 'continue a stored session (agent resume): after a crash or a pause')
    .option('--verbose', 'log every LLM and tool step on stderr')
    .option('--trace-llm', 'log LLM requests and responses')
    .option('--trace-mcp', 'log MCP traffic');
  for (const [flag, , what] of SETTING_FLAGS) program.addOption(new Option(flag, what));
  for (const [flag] of REFUSED_FLAGS) program.addOption(new Option(flag, 'not supported here').hideHelp());
  program.action(async (args: string[], options: Record<string, unknown>) => {
    refuseUnsupported(options);
    if (typeof options.resume === 'string') {
      setCode(await resume(options.resume, args, options, io));
      return;
    }
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
    setCode(await runCommand({ file, prompt, io, options: runOptions(options) }));
  });
  return program;
}

/** The options every run of the bin shares: settings, models, stream, billing file, tracing. */
function runOptions(options: Record<string, unknown>) {
  const settings: Record<string, unknown> = {};
  for (const [flag, key] of SETTING_FLAGS) {
    const value = options[attribute(flag)];
    // `default` / `inherit`: as the agent file says (ai-agent's way to clear a flag).
    if (typeof value === 'string' && !['default', 'inherit'].includes(value))
      settings[key] = settingValue(value);
  }
  const models = typeof options.models === 'string' ? modelList(options.models) : [];
  // `--stream` / `--no-stream` (commander's `stream`): every agent, as ai-agent's scope says.
  const override = [
    ...((options.override as string[] | undefined) ?? []),
    ...(typeof options.stream === 'boolean' ? [`stream=${String(options.stream)}`] : []),
  ];
  return {
    ...(models.length === 0 ? {} : { topModels: models }),
    ...pick(options, ['format', 'schema', 'config', 'verbose', 'quiet', 'traceLlm', 'traceMcp']),
    ...(override.length === 0 ? {} : { override }),
    ...(typeof options.billingFile === 'string' ? { accounting: options.billingFile } : {}),
    ...(Object.keys(settings).length === 0 ? {} : { settings }),
  };
}

/** `--resume ID`: `agent resume ID`; `--agent` (or the shebang's file) picks the agent file. */
async function resume(
  sessionId: string,
  args: string[],
  options: Record<string, unknown>,
  io: ReturnType<typeof processIo>,
): Promise<CliExitCode> {
  const agent = (options.agent as string | undefined) ?? args[0];
  const rest = options.agent === undefined ? args.slice(1) : args;
  if (rest.length > 0)
    throw usageError('--resume continues the stored session where it stopped; it takes no prompt');
  return resumeCommand(sessionId, { ...runOptions(options), ...(agent === undefined ? {} : { agent }) }, io);
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
