#!/usr/bin/env node
import { format } from 'node:util';
import { AgentError } from '@agent/protocol';
import { errorMessage } from '@agent/protocol/util';
import { CommanderError } from 'commander';
import { loadAgents } from './agent-catalog.js';
import { parseServerArgs } from './cli-options.js';
import { startHeadends } from './start-headends.js';

const log = (line: string) => process.stderr.write(`${line}\n`);

// stdout may carry MCP over stdio: anything a dependency prints goes to stderr instead.
for (const method of ['log', 'info', 'debug'] as const) {
  console[method] = (...args: unknown[]) => process.stderr.write(`${format(...args)}\n`);
}

async function main(): Promise<number> {
  let config: ReturnType<typeof parseServerArgs>;
  try {
    config = parseServerArgs(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (AgentError.is(error, 'configuration')) {
      log(`agent-server: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const agents = await loadAgents(config.agents, config.agentConfig);
  const { running, stdio } = await startHeadends(config, agents.catalog, log);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log(`agent-server: ${signal} again, exiting now`);
      process.exit(1);
    }
    stopping = true;
    log(`agent-server: ${signal}: draining (up to ${config.drainSeconds}s)`);
    await Promise.allSettled(running.map((headend) => headend.drain(config.drainSeconds * 1000)));
    await agents.close();
    log('agent-server: stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  if (stdio !== undefined) void stdio.closed.then(() => stop('stdin closed'));
  return -1;
}

main().then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    log(`agent-server: ${errorMessage(error)}`);
    process.exit(1);
  },
);
