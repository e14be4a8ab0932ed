import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OutputFormat } from '@agent/protocol';
import {
  finalReport as finalReportStep,
  type ModelServer,
  type RecordedRequest,
  type ScriptedAnswer,
  startModelServer,
} from '@agent/testkit';

export const SERVER_BIN = fileURLToPath(new URL('../dist/agent-server.js', import.meta.url));

/** The text of a final report (the testkit's builder), which the testkit fills with the session's nonce. */
export function finalReport(payload: string, format: OutputFormat = 'markdown'): string {
  return String(finalReportStep(payload, { format }).text);
}

/** The prompt: the last user message that is not the XML-NEXT notice. */
export function lastUserText(messages: readonly { role: string; content: string }[]): string {
  return messages.filter((m) => m.role === 'user' && !m.content.includes('-FINAL')).at(-1)?.content ?? '';
}

/**
 * The helper-approval agents' model: the top agent asks its helper (`agent__helper`, a call
 * that needs approval), then reports; the helper says hi. See `writeHelperApprovalAgents`.
 */
export function helperApprovalModel(request: RecordedRequest): ScriptedAnswer {
  const system = request.messages.find((message) => message.role === 'system');
  if (String(system?.content ?? '').includes('You are helper.')) return { text: finalReport('hi') };
  if (!request.messages.some((message) => message.role === 'assistant')) {
    return { toolCalls: [{ id: 'call_h1', name: 'agent__helper', arguments: { prompt: 'say hi' } }] };
  }
  return { text: finalReport('The helper said hi.') };
}

/** Rewrites `dir`'s first agent (echo) to call a helper sub-agent that needs approval. */
export function writeHelperApprovalAgents(dir: AgentDir): void {
  writeFileSync(
    dir.files[0]!,
    '---\ndescription: The echo agent.\nmodels: [local/m]\nagents: [helper.ai]\napproval:\n  tools: [agent__helper]\n---\nYou are echo.\n',
  );
  writeFileSync(
    join(dir.dir, 'helper.ai'),
    '---\ndescription: Says hi.\nmodels: [local/m]\n---\nYou are helper.\n',
  );
}

export interface AgentDir {
  dir: string;
  model: ModelServer;
  files: string[];
  close(): Promise<void>;
}

/** A temp dir with agent.json pointing at a testkit model server, and one .ai file per name. */
export async function agentDir(
  answer: (request: RecordedRequest) => ScriptedAnswer | Promise<ScriptedAnswer>,
  names: string[] = ['echo'],
): Promise<AgentDir> {
  const model = await startModelServer({ handler: answer });
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-server-test-')));
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({ providers: { local: { type: 'openai-compatible', baseURL: `${model.url}/v1` } } }),
  );
  const files = names.map((name) => {
    const file = join(dir, `${name}.ai`);
    writeFileSync(file, `---\ndescription: The ${name} agent.\nmodels: [local/m]\n---\nYou are ${name}.\n`);
    return file;
  });
  return {
    dir,
    model,
    files,
    close: async () => {
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RunningServer {
  child: ChildProcess;
  urls: Record<string, string>;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** The environment a spawned `agent-server` gets: its home in `cwd`, no tokens unless `env` sets them. */
export function serverEnv(cwd: string, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: cwd,
    XDG_CONFIG_HOME: join(cwd, '.config'),
    AGENT_SERVER_TOKENS: '',
    ...env,
  };
}

/** Spawns the built bin in `cwd` and waits until `expected` headends print their listening line. */
export function startServer(
  args: string[],
  cwd: string,
  expected: number,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const child = spawn(process.execPath, [SERVER_BIN, ...args], {
    cwd,
    env: serverEnv(cwd, env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const urls: Record<string, string> = {};
    const timer = setTimeout(() => reject(new Error(`agent-server did not start:\n${stderr}`)), 30_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      for (const match of stderr.matchAll(/agent-server: (\S+) listening on (\S+)/g)) {
        urls[match[1]!] = match[2]!;
      }
      if (Object.keys(urls).length >= expected) {
        clearTimeout(timer);
        resolve({ child, urls, stderr: () => stderr, exited });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`agent-server exited with ${code}:\n${stderr}`));
    });
  });
}

/** One sample of a Prometheus exposition text: the value of `name` with these labels. */
export function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const match = /^([^{ ]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}
