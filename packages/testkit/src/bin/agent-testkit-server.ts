#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startModelServer } from '../server/http-server.js';
import { loopHandler, parseScript } from './script-file.js';

const USAGE = `usage: agent-testkit-server --script FILE [--port N] [--host H] [--fixtures DIR] [--strict]

Serves OpenAI Chat Completions, OpenAI Responses and Anthropic Messages from a script.
FILE is JSON: {"steps": [...]} (each answer once, in order) or {"loop": [...]} (cycled forever).
OpenAI clients use baseURL <url>/v1, Anthropic clients baseURL <url>.
--strict refuses requests the real APIs refuse, with their error bodies; <url>/mistral/v1,
<url>/deepseek/v1 and <url>/openrouter/v1 play those servers' rules.`;

function fail(message: string): never {
  console.error(`agent-testkit-server: ${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values: {
    script?: string;
    port?: string;
    host?: string;
    fixtures?: string;
    strict?: boolean;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      options: {
        script: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        fixtures: { type: 'string' },
        strict: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help === true) {
    console.log(USAGE);
    return;
  }
  if (values.script === undefined) fail('--script FILE is required');
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    fail(`--port must be an integer 0-65535, got ${values.port}`);
  let text: string;
  try {
    text = readFileSync(values.script, 'utf8');
  } catch (error) {
    fail(`cannot read --script ${values.script}: ${(error as Error).message}`);
  }
  let script: ReturnType<typeof parseScript>;
  try {
    script = parseScript(text, values.script);
  } catch (error) {
    fail((error as Error).message);
  }
  const server = await startModelServer({
    ...('steps' in script ? { steps: script.steps } : { handler: loopHandler(script.loop) }),
    port,
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values.fixtures === undefined ? {} : { fixturesDir: values.fixtures }),
    ...(values.strict === true ? { strict: true } : {}),
  });
  console.log(`listening on ${server.url}${values.strict === true ? ' (strict)' : ''}`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`agent-testkit-server: ${(error as Error).message}`);
  process.exit(1);
});
