import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConversationMessage } from '@agent/protocol';
import {
  finalReport,
  type ModelServer,
  type RecordedRequest,
  type ScriptedAnswer,
  startModelServer,
} from '@agent/testkit';
import { onTestFinished } from 'vitest';

export const CLI_BIN = fileURLToPath(new URL('../../dist/agent.js', import.meta.url));
/** The `ai-agent` bin (ai-agent's flags). */
export const AI_AGENT_BIN = fileURLToPath(new URL('../../dist/ai-agent.js', import.meta.url));
export const REPO_DIR = fileURLToPath(new URL('../../../../', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  cwd?: string;
  /** Added to (or, with undefined values, removed from) the child's environment. */
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed (stdin is always closed: never a TTY). */
  input?: string;
  timeoutMs?: number;
  /** The script to run (default `CLI_BIN`). */
  bin?: string;
}

/** Spawns `node dist/agent.js ...args` (asynchronously: the model server lives in this process). */
export function runCli(args: string[], options: CliRunOptions = {}): Promise<CliRun> {
  return spawnCli(args, options).done;
}

/** Like `runCli`, with the child process at hand (to send it signals). */
export function spawnCli(
  args: string[],
  options: CliRunOptions = {},
): { child: ChildProcess; done: Promise<CliRun> } {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  for (const key of ['NO_COLOR', 'FORCE_COLOR'])
    if (options.env === undefined || !(key in options.env)) delete env[key];
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  const child = spawn(process.execPath, [options.bin ?? CLI_BIN, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: env as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const done = new Promise<CliRun>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`agent ${args.join(' ')} did not end in time\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 45_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
  child.stdin!.end(options.input ?? '');
  return { child, done };
}

/** Resolves once `condition` holds (polled every 20 ms), or rejects after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const NONCE = /ai-agent-([0-9a-f]+)-FINAL/;

/** The session nonce, from the newest user message that names the FINAL tag (the XML-NEXT notice). */
export function nonceOf(messages: readonly ConversationMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'user') continue;
    const match = NONCE.exec(
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    );
    if (match !== null) return match[1]!;
  }
  throw new Error('no FINAL tag nonce in the request');
}

/**
 * A final report written by hand in the nonce-tagged XML slot, for what the testkit's builders
 * cannot write on purpose (a status the protocol does not know); otherwise use `report`.
 */
export function handWrittenSlot(nonce: string, body: string, status: string): string {
  const tag = `ai-agent-${nonce}-FINAL`;
  return `<${tag} tool="agent__final_report" status="${status}" format="markdown">${body}</${tag}>`;
}

export type Step = (request: RecordedRequest, nonce: () => string) => ScriptedAnswer;

/** A scripted answer that ends the session with a report. */
export function report(body: string, options: Parameters<typeof finalReport>[1] = {}): Step {
  return () => finalReport(body, { ...options, answer: { usage: { inputTokens: 100, outputTokens: 20 } } });
}

/**
 * A model server that answers call N with step N (a later call gets a 500 naming it). Call it
 * inside a test: the server closes when the test finishes.
 */
export async function scriptedServer(steps: Step[]): Promise<ModelServer> {
  let call = 0;
  const server = await startModelServer({
    handler: (request) => {
      const step = steps[call++];
      if (step === undefined) throw new Error(`call #${call} was not planned (only ${steps.length} steps)`);
      return step(request, () => nonceOf(request.messages));
    },
  });
  onTestFinished(() => server.close());
  return server;
}

/** A scripted server, a workspace with `ask.ai` using it, and `run(args)` of the CLI in it. */
export async function scriptedAgent(steps: Step[], frontmatter = 'models: test/scripted-model\nmaxTurns: 4') {
  const server = await scriptedServer(steps);
  const ws = workspace(server, { 'ask.ai': agentFile(frontmatter) });
  const run = (args: string[], options: CliRunOptions = {}) =>
    runCli([...args, '--config', ws.file('agent.json')], {
      cwd: ws.dir,
      ...options,
      env: { ...isolatedEnv(ws), ...options.env },
    });
  return { server, ws, run, file: ws.file('ask.ai') };
}

export interface Workspace {
  dir: string;
  file(name: string): string;
  write(name: string, content: string): string;
}

const created: string[] = [];

/** Removes every workspace made so far (call it in `afterAll`). */
export function removeWorkspaces(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A temp dir holding `agent.json` (one openai-compatible provider `test` at the server) and agent files. */
export function workspace(
  server: { url: string } | undefined,
  agents: Record<string, string> = {},
): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'agent-cli-e2e-'));
  created.push(dir);
  const ws: Workspace = {
    dir,
    file: (name) => join(dir, name),
    write: (name, content) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
  };
  mkdirSync(join(dir, 'xdg'), { recursive: true });
  if (server !== undefined) {
    ws.write(
      'agent.json',
      `${JSON.stringify(
        {
          providers: {
            test: { type: 'openai-compatible', baseURL: `${server.url}/v1`, apiKey: 'test-key' },
            spare: { type: 'openai-compatible', baseURL: `${server.url}/v1`, apiKey: 'test-key' },
          },
        },
        null,
        2,
      )}\n`,
    );
  }
  for (const [name, content] of Object.entries(agents)) ws.write(name, content);
  return ws;
}

/** Adds `mcpServers` entries to the workspace's `agent.json`. */
export function addMcpServers(ws: Workspace, servers: Record<string, Record<string, unknown>>): void {
  const config = JSON.parse(readFileSync(ws.file('agent.json'), 'utf8')) as Record<string, unknown>;
  config.mcpServers = { ...(config.mcpServers as object | undefined), ...servers };
  ws.write('agent.json', `${JSON.stringify(config, null, 2)}\n`);
}

/** The stdio MCP fixture that ignores SIGTERM (see fixtures/stubborn-mcp.mjs). */
export const STUBBORN_MCP = fileURLToPath(new URL('./fixtures/stubborn-mcp.mjs', import.meta.url));

/** The last line of a text (the CLI's closing line on stderr). */
export function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? '';
}

/** An agent file: shebang, YAML frontmatter, prompt. */
export function agentFile(
  frontmatter: string,
  prompt = 'You are a careful assistant. Answer the question.',
): string {
  return `#!/usr/bin/env agent\n---\n${frontmatter.trim()}\n---\n${prompt}\n`;
}

/** Environment for a spawned CLI inside a workspace: no user config of the machine leaks in. */
export function isolatedEnv(ws: Workspace): Record<string, string | undefined> {
  return { XDG_CONFIG_HOME: join(ws.dir, 'xdg'), HOME: ws.dir };
}

/** Runs `agent ARGS` in a detached tmux session; `screen()` is what the terminal shows. */
export function inTmux(ws: Workspace, args: string[]) {
  const socket = join(ws.dir, 'tmux.sock');
  const env = { ...process.env, ...isolatedEnv(ws), TERM: 'xterm-256color' };
  const quote = (part: string) => `'${part.replaceAll("'", "'\\''")}'`;
  const command = [process.execPath, CLI_BIN, ...args, '--config', ws.file('agent.json')]
    .map(quote)
    .join(' ');
  const tmux = (...rest: string[]) =>
    spawnSync('tmux', ['-S', socket, ...rest], { encoding: 'utf8', env, cwd: ws.dir });
  tmux('new-session', '-d', '-x', '160', '-y', '50', `${command}; echo "EXIT=$?"; sleep 60`);
  return {
    screen: () => tmux('capture-pane', '-p', '-J', '-S', '-100').stdout ?? '',
    type: (...keys: string[]) => tmux('send-keys', ...keys),
    close: () => tmux('kill-server'),
  };
}
