import { checkQueueUrl, parseProviderCap } from '@agent/queue/options';
import { Command, InvalidArgumentError } from 'commander';
import { collect, parseCommandLine } from './command-line.js';
import { configError } from './config-values.js';
import { envQueueUrl } from './server-config.js';

/** What `agent-server worker` needs. */
export interface WorkerConfig {
  url: string;
  queueName?: string;
  agents: string[];
  agentConfig?: string;
  concurrency: number;
  providerCaps: Record<string, number>;
  lockSeconds: number;
  maxMoves: number;
  drainSeconds: number;
}

function wholeNumber(flag: string, min: number) {
  return (text: string) => {
    const value = text.trim() === '' ? Number.NaN : Number(text);
    if (!Number.isInteger(value) || value < min) {
      throw new InvalidArgumentError(
        `${flag}: expected a whole number >= ${min}, not ${JSON.stringify(text)}.`,
      );
    }
    return value;
  };
}

function cap(text: string, previous: Record<string, number> = {}): Record<string, number> {
  try {
    const [provider, limit] = parseProviderCap(text);
    return { ...previous, [provider]: limit };
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/** The flags `agent-server worker` takes. */
interface WorkerFlags {
  queue?: string;
  queueName?: string;
  agent?: string[];
  agentConfig?: string;
  concurrency?: number;
  providerCap?: Record<string, number>;
  lockSeconds?: number;
  maxMoves?: number;
  drainSeconds?: number;
}

/** The `agent-server worker` command line: its flags, their help and checks. */
function workerProgram(): Command {
  return new Command('agent-server worker')
    .description('Runs the agent sessions that agent-server faces enqueue on a Redis queue.')
    .option(
      '--queue <url>',
      'the queue: redis://[:password@]host:port[/db] or rediss://..., a Redis Cluster: redis+cluster://[:password@]host:port[?node=host:port...] or rediss+cluster://... (also AGENT_SERVER_QUEUE_URL, which keeps the password off the command line)',
    )
    .option('--queue-name <name>', 'the BullMQ queue (default agent-runs); the faces must use the same')
    .option(
      '--agent <file>',
      'an .ai agent file this worker runs (repeatable; the same as the faces)',
      collect,
    )
    .option('--agent-config <file>', 'the agent runtime config (agent.json)')
    .option(
      '--concurrency <n>',
      'sessions this worker runs at once (default 4)',
      wholeNumber('--concurrency', 1),
    )
    .option(
      '--provider-cap <provider=n>',
      'fleet-wide cap of sessions at once for a model provider, e.g. openai=8 (repeatable)',
      cap,
    )
    .option(
      '--lock-seconds <s>',
      "a job's lock: a dead worker's sessions move after one to two of these (default 30)",
      wholeNumber('--lock-seconds', 1),
    )
    .option(
      '--max-moves <n>',
      'times one session may move to another worker before it fails (default 5)',
      wholeNumber('--max-moves', 1),
    )
    .option(
      '--drain-seconds <s>',
      'on SIGTERM, how long running sessions may finish before they are handed back (default 10)',
      wholeNumber('--drain-seconds', 0),
    );
}

/** Parses `agent-server worker ...` (the arguments after `worker`). */
export function parseWorkerArgs(argv: string[], env: Record<string, string | undefined> = {}): WorkerConfig {
  const program = workerProgram();
  parseCommandLine(program, argv);
  return workerConfig(program.opts<WorkerFlags>(), env);
}

/** The worker's config from its flags, defaults filled in; at least one agent is required. */
function workerConfig(flags: WorkerFlags, env: Record<string, string | undefined>): WorkerConfig {
  const url = flags.queue === undefined ? envQueueUrl(env) : checkQueueUrl(flags.queue, '--queue');
  if (url === undefined)
    throw configError(
      '--queue',
      undefined,
      'a Redis URL: redis://, rediss://, redis+cluster:// or rediss+cluster://',
      'no queue: give --queue redis://... or set AGENT_SERVER_QUEUE_URL',
    );
  const agents = flags.agent ?? [];
  if (agents.length === 0) {
    throw configError(
      '--agent',
      undefined,
      'at least one .ai file',
      'no agents: give --agent <file.ai> (repeatable)',
    );
  }
  return {
    url,
    ...(flags.queueName === undefined ? {} : { queueName: flags.queueName }),
    agents,
    ...(flags.agentConfig === undefined ? {} : { agentConfig: flags.agentConfig }),
    concurrency: flags.concurrency ?? 4,
    providerCaps: flags.providerCap ?? {},
    lockSeconds: flags.lockSeconds ?? 30,
    maxMoves: flags.maxMoves ?? 5,
    drainSeconds: flags.drainSeconds ?? 10,
  };
}
