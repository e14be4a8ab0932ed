#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { OUTPUT_FORMATS } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { Command, CommanderError } from 'commander';
import { CliError } from './cli-error.js';
import { demoCommand } from './commands/demo.js';
import { listCommand } from './commands/list.js';
import { resumeCommand } from './commands/resume.js';
import { runCommand } from './commands/run.js';
import { collect } from './commands/run-options.js';
import { validateCommand } from './commands/validate.js';
import { CLI_EXIT, type CliExitCode } from './exit-codes.js';
import { helpEpilogue } from './help.js';
import { processIo } from './io.js';
import { expandShorthand } from './shorthand.js';

const COMMANDS = ['run', 'resume', 'validate', 'list', 'demo', 'help'];

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function buildProgram(setCode: (code: CliExitCode) => void): Command {
  const io = processIo();
  const program = new Command('agent')
    .description(
      'Run agents written as .ai files: a model that plans, calls tools and hands back one final report.',
    )
    .version(version(), '-V, --version')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', helpEpilogue());

  const observability = (command: Command) =>
    command
      .option('-v, --verbose', 'log every LLM and tool step on stderr (logfmt)')
      .option('--trace-llm', 'log LLM requests and responses at TRC severity')
      .option('--trace-mcp', 'log MCP traffic at TRC severity')
      .option('--json', 'print the whole AgentResult as JSON on stdout instead of the report')
      .option('--accounting <file.jsonl>', 'append every accounting entry to FILE as one JSON line');

  observability(
    program
      .command('run')
      .description('run an agent file once (shorthand: agent <file.ai> [prompt])')
      .argument('<file.ai>', 'the agent file')
      .argument('[prompt]', "the user prompt; '-' or absent with piped stdin: read stdin")
      .option(
        '-m, --model <provider/model>',
        'model to use, repeatable, in fallback order (replaces the models of every agent in the tree)',
        collect,
      )
      .option('-f, --format <format>', `output format of the final report: ${OUTPUT_FORMATS.join(', ')}`)
      .option('--schema <file.json>', 'JSON Schema file for the json format (implies --format json)')
      .option('--max-turns <n>', 'maximum number of turns')
      .option('-c, --config <file>', 'config file (the highest configuration layer)')
      .option('--session-id <id>', 'the session id (default a random one): agent resume <id> continues it')
      .addHelpText('after', helpEpilogue()),
  ).action(async (file: string, prompt: string | undefined, options) => {
    setCode(await runCommand({ file, prompt, options, io }));
  });

  observability(
    program
      .command('resume')
      .description(
        'continue a stored session: after a crash, or with decisions for the tool calls it waits for',
      )
      .argument('<session-id>', 'the session (named in the closing line of a paused run)')
      .option('--approve <call-id>', 'approve a pending tool call, repeatable', collect)
      .option('--deny <call-id>', 'deny a pending tool call, repeatable (the model is told)', collect)
      .option('--reason <text>', 'why the calls given to --deny are denied (the model reads it)')
      .option('-a, --agent <file.ai>', 'the agent file (default: the one that started the session)')
      .option('-c, --config <file>', 'config file (the highest configuration layer)')
      .addHelpText('after', helpEpilogue()),
  ).action(async (sessionId: string, options) => {
    setCode(await resumeCommand(sessionId, options, io));
  });

  program
    .command('validate')
    .description('check agent files and their sub-agents without running them')
    .argument('<file.ai...>', 'agent files')
    .option('-c, --config <file>', 'config file')
    .option('--json', 'print the verdicts as JSON on stdout')
    .action(async (files: string[], options) => {
      setCode(await validateCommand(files, options, io));
    });

  program
    .command('list')
    .description('show the agents and what the config provides (providers, models, MCP servers)')
    .option(
      '-a, --agent <file.ai>',
      'agent file to describe, repeatable (default: the .ai files in the cwd)',
      collect,
    )
    .option('-c, --config <file>', 'config file')
    .option('--json', 'print the listing as JSON')
    .action(async (options) => {
      setCode(await listCommand(options, io));
    });

  observability(
    program
      .command('demo')
      .description('run examples/demo against a local scripted model: no API key needed')
      .argument('[prompt]', 'the prompt (default: the demo prompt)'),
  ).action(async (prompt: string | undefined, options) => {
    setCode(await demoCommand(prompt, options, io));
  });

  return program;
}

async function main(): Promise<CliExitCode> {
  let code: CliExitCode = CLI_EXIT.success;
  const program = buildProgram((value) => {
    code = value;
  });
  try {
    await program.parseAsync(expandShorthand(process.argv.slice(2), COMMANDS), { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      const ok =
        error.exitCode === 0 ||
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version';
      return ok ? CLI_EXIT.success : CLI_EXIT.usage;
    }
    if (error instanceof CliError) {
      process.stderr.write(`agent: ${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(
      `agent: internal error: ${error instanceof Error ? (error.stack ?? error.message) : errorMessage(error)}\n`,
    );
    return CLI_EXIT.internal;
  }
}

main().then((code) => {
  process.exitCode = code;
  // Whatever still holds the event loop (a stuck child process) must not keep the CLI alive.
  setTimeout(() => process.exit(code), 1_000).unref();
});
