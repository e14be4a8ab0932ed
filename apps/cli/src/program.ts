import { OUTPUT_FORMATS } from '@agent/protocol';
import { Command, Option } from 'commander';
import { demoCommand } from './commands/demo.js';
import { evalCommand } from './commands/eval.js';
import { initCommand } from './commands/init.js';
import { inspectCommand } from './commands/inspect.js';
import { listCommand } from './commands/list.js';
import { mcpListCommand, mcpLoginCommand, mcpLogoutCommand } from './commands/mcp.js';
import { replayCommand } from './commands/replay.js';
import { resumeCommand } from './commands/resume.js';
import { runCommand } from './commands/run.js';
import { collect } from './commands/run-options.js';
import { sessionsSealCommand } from './commands/sessions.js';
import { validateCommand } from './commands/validate.js';
import type { CliExitCode } from './exit-codes.js';
import { helpEpilogue } from './help.js';
import { type CliIo, processIo } from './io.js';
import { version } from './main.js';

/** What each command's action needs: where to set the exit code, and the terminal. */
interface Wiring {
  setCode: (code: CliExitCode) => void;
  io: CliIo;
}

const APPROVAL_TIMEOUT_HELP =
  'how long a tool call that needs approval waits for your answer on a terminal (30s, 5m; default 10m); then it is denied';

/** The `agent` program: its commands, options and help. */
export function buildProgram(setCode: (code: CliExitCode) => void): Command {
  const wiring: Wiring = { setCode, io: processIo() };
  const program = new Command('agent')
    .description(
      'Run agents written as .ai files: a model that plans, calls tools and hands back one final report.',
    )
    .version(version(), '-V, --version')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', helpEpilogue());
  addRunCommand(program, wiring);
  addResumeCommand(program, wiring);
  addSessionsCommands(program, wiring);
  addReadingCommands(program, wiring);
  addReplayCommand(program, wiring);
  addMcpCommands(program, wiring);
  addEvalCommand(program, wiring);
  program
    .command('init')
    .description(
      'start a project: agent.json (keys read from the environment), an agent, its test, package.json; overwrites nothing',
    )
    .argument('[dir]', 'the project directory, created when missing (default: the current directory)')
    .action(async (dir: string | undefined) => {
      setCode(await initCommand(dir, wiring.io));
    });
  observability(
    program
      .command('demo')
      .description('run examples/demo against a local scripted model: no API key needed')
      .argument('[prompt]', 'the prompt (default: the demo prompt)'),
  ).action(async (prompt: string | undefined, options) => {
    setCode(await demoCommand(prompt, options, wiring.io));
  });
  return program;
}

/** The options of the commands that run a session: logs, tracing, JSON output, progress. */
function observability(command: Command): Command {
  return command
    .option('-v, --verbose', 'log every LLM and tool step on stderr (logfmt)')
    .option('--trace-llm', 'log LLM requests and responses at TRC severity')
    .option('--trace-mcp', 'log MCP traffic at TRC severity')
    .option('--json', 'print the whole AgentResult as JSON on stdout instead of the report')
    .option('--accounting <file.jsonl>', 'append every accounting entry to FILE as one JSON line')
    .option('-q, --quiet', 'no progress on stderr (on a terminal the live status line is drawn by default)')
    .option('--progress', 'when stderr is not a terminal, one short line per turn on stderr');
}

function addRunCommand(program: Command, { setCode, io }: Wiring): void {
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
      .option(
        '--schema <schema>',
        'JSON Schema for the json format: inline JSON, @file.json or a file path (implies --format json)',
      )
      .option(
        '--override <key=value>',
        'a setting for every agent of the tree, repeatable (temperature=0.2, llmTimeout=5m, topP=none, models=a/b,c/d)',
        collect,
      )
      .option('--max-turns <n>', 'maximum number of turns')
      .option('-c, --config <file>', 'config file (the highest configuration layer)')
      .option('--approval-timeout <duration>', APPROVAL_TIMEOUT_HELP)
      .option('--session-id <id>', 'the session id (default a random one): agent resume <id> continues it')
      .option(
        '--conversation <name>',
        'continue a conversation: its earlier prompts and reports come back as history, and this run is added to it',
      )
      .addHelpText('after', helpEpilogue()),
  ).action(async (file: string, prompt: string | undefined, options) => {
    setCode(await runCommand({ file, prompt, options, io }));
  });
}

function addResumeCommand(program: Command, { setCode, io }: Wiring): void {
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
      .option('--approval-timeout <duration>', APPROVAL_TIMEOUT_HELP)
      .option('-c, --config <file>', 'config file (the highest configuration layer)')
      .addHelpText('after', helpEpilogue()),
  ).action(async (sessionId: string, options) => {
    setCode(await resumeCommand(sessionId, options, io));
  });
}

/** `agent sessions seal`: the stored sessions' upkeep. */
function addSessionsCommands(program: Command, { setCode, io }: Wiring): void {
  program
    .command('sessions')
    .description('look after the session store (where agent resume finds sessions)')
    .command('seal')
    .description(
      'after an upgrade: add integrity tags to the snapshots a release before tags wrote (version 1), so they resume; only for a store you trust',
    )
    .option('-c, --config <file>', 'config file (where sessions.store is set)')
    .action(async (options) => {
      setCode(await sessionsSealCommand(options, io));
    });
}

/** The commands that read without running: validate, list, inspect. */
function addReplayCommand(program: Command, { setCode, io }: Wiring): void {
  program
    .command('replay')
    .description(
      'run a recorded session again with the model (and tools) answered from its record, no API key; exit 13 when it diverges',
    )
    .argument('<record|dir>', 'a session record (.json.gz), or a directory of them (a regression suite)')
    .option(
      '-a, --agent <file.ai>',
      "the agent file to run instead of the record's (a changed prompt, model, tools)",
    )
    .option('--live-tools', 'run the tools for real instead of answering them from the record')
    .addOption(
      new Option('--compare <mode>', 'what must match: the report; + tool calls; + every model request')
        .choices(['report', 'calls', 'requests'])
        .default('report'),
    )
    .option('--json', 'print the verdict and divergences as JSON on stdout')
    .option('--junit <file>', 'write the results as JUnit XML to FILE (for CI)')
    .option('-c, --config <file>', 'config file')
    .action(async (ref: string, options) => {
      setCode(await replayCommand(ref, options, io));
    });
}

function addReadingCommands(program: Command, { setCode, io }: Wiring): void {
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
    .description('show the agents and what the config provides (providers, models, MCP servers, HTTP APIs)')
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

  program
    .command('inspect')
    .description(
      'show a finished session (persistence.sessionsDir) as a tree with tokens, cost and durations',
    )
    .argument(
      '<file-or-session-id>',
      'a record file (<id>.json.gz), or a session id in the configured sessionsDir',
    )
    .option('-c, --config <file>', 'config file (where persistence.sessionsDir is set)')
    .option('--full', 'show the LLM and tool payloads whole instead of folded')
    .option('--json', 'print the session record as JSON')
    .action(async (ref: string, options) => {
      setCode(await inspectCommand(ref, options, io));
    });
}

/** `agent mcp login | logout | list`. */
function addMcpCommands(program: Command, { setCode, io }: Wiring): void {
  const mcp = program
    .command('mcp')
    .description('log in to remote MCP servers (OAuth), log out, list the configured servers');
  mcp
    .command('login')
    .description(
      'authorize a remote MCP server in the browser (loopback redirect); tokens stay in your state dir',
    )
    .argument('<server>', 'the server name in mcpServers')
    .option('-c, --config <file>', 'config file')
    .action(async (server: string, options) => {
      setCode(await mcpLoginCommand(server, options, io));
    });
  mcp
    .command('logout')
    .description("forget a server's stored OAuth client and tokens")
    .argument('<server>', 'the server name in mcpServers')
    .option('-c, --config <file>', 'config file')
    .action(async (server: string, options) => {
      setCode(await mcpLogoutCommand(server, options, io));
    });
  mcp
    .command('list')
    .description('the configured MCP servers: transport, authorization state, tool count')
    .option('-c, --config <file>', 'config file')
    .option('--json', 'print the listing as JSON')
    .action(async (options) => {
      setCode(await mcpListCommand(options, io));
    });
}

function addEvalCommand(program: Command, { setCode, io }: Wiring): void {
  program
    .command('eval')
    .description(
      'score an agent on a dataset of cases (JSONL or YAML); exit 13 when a case fails or regresses',
    )
    .argument('<dataset>', 'the cases: .jsonl (one per line) or .yaml/.yml ({scorers?, budgets?, cases})')
    .requiredOption('-a, --agent <file.ai>', 'the agent file every case runs')
    .option('--repeat <k>', 'runs per case, for pass^k (default 1)')
    .option('--concurrency <n>', 'cases run at once (default 2)')
    .option('--out <dir>', 'where <runId>/results.json and records/ go', '.agent-evals')
    .option('--baseline <results.json>', 'an earlier results file: show what got better and worse')
    .option('--json', 'print the results file as JSON instead of the table')
    .option('--junit <file>', 'also write the results as JUnit XML')
    .option('-c, --config <file>', 'config file')
    .action(async (dataset: string, options) => {
      setCode(await evalCommand(dataset, options, io));
    });
}
