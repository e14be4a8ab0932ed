import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliExitCode } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { findDemoDir, loopHandler, readDemoScript } from './demo-files.js';
import { runSession } from './run-session.js';

export interface DemoCliOptions {
  verbose?: boolean;
  json?: boolean;
  accounting?: string;
  traceLlm?: boolean;
  traceMcp?: boolean;
}

/** Used when the demo has no `prompt.txt` and none is given. */
export const DEFAULT_DEMO_PROMPT =
  'Read the files in the data directory, have the summarizer summarize them, and report the result as JSON.';

/** The variable the demo's agent.json uses for the provider's base URL. */
export const DEMO_BASE_URL_ENV = 'DEMO_BASE_URL';

/**
 * `agent demo [prompt]`: runs `examples/demo/orchestrator.ai` against a local scripted model
 * server (no API key, no network), with the demo's agent.json pointed at it through
 * `${DEMO_BASE_URL}`. Writes nothing outside a temporary directory, which it removes.
 */
export async function demoCommand(
  prompt: string | undefined,
  options: DemoCliOptions,
  io: CliIo,
): Promise<CliExitCode> {
  const demoDir = findDemoDir(io.env);
  const script = readDemoScript(join(demoDir, 'script.json'));
  io.stderr.write(
    `agent demo: the model is scripted - a local test server replays ${join(demoDir, 'script.json')}; no API key is used and nothing leaves this machine.\n`,
  );
  const { startModelServer } = await import('@agent/testkit');
  const server = await startModelServer(
    'steps' in script ? { steps: script.steps } : { handler: loopHandler(script.loop) },
  );
  const workDir = mkdtempSync(join(tmpdir(), 'agent-demo-'));
  try {
    return await runSession({
      file: join(demoDir, 'orchestrator.ai'),
      prompt: prompt ?? defaultPrompt(demoDir),
      run: {
        configPath: join(demoDir, 'agent.json'),
        traceLlm: options.traceLlm === true,
        traceMcp: options.traceMcp === true,
      },
      display: {
        verbose: options.verbose === true,
        json: options.json === true,
        ...(options.accounting === undefined ? {} : { accountingPath: options.accounting }),
      },
      resolve: {
        cwd: demoDir,
        env: { ...io.env, [DEMO_BASE_URL_ENV]: `${server.url}/v1` },
        userConfigDir: join(workDir, 'user-config'),
        systemConfigDir: join(workDir, 'system-config'),
      },
      io,
    });
  } finally {
    await server.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

function defaultPrompt(demoDir: string): string {
  const file = join(demoDir, 'prompt.txt');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : DEFAULT_DEMO_PROMPT;
}
