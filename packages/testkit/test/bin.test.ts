import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
let workDir: string;
let binPath: string;
const children: ChildProcess[] = [];

// The bin is built from source into a temp dir (the package's own dist is not a test input).
beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'agent-testkit-bin-'));
  await build({
    config: false,
    silent: true,
    entry: { 'agent-testkit-server': join(packageDir, 'src/bin/agent-testkit-server.ts') },
    outDir: workDir,
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    dts: false,
    clean: false,
    noExternal: [/.*/],
    esbuildOptions(options) {
      options.conditions = ['@agent/source'];
    },
  });
  binPath = join(workDir, 'agent-testkit-server.js');
}, 60_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(workDir, { recursive: true, force: true });
});

function run(args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [binPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function listeningUrl(output: () => string): Promise<string> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    const match = /listening on (http:\/\/\S+)/.exec(output());
    if (match?.[1] !== undefined) return match[1];
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the bin did not print its URL; output: ${output()}`);
}

function script(name: string, content: unknown): string {
  const file = join(workDir, name);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

describe('agent-testkit-server', () => {
  it('serves a loop script to the OpenAI client and stops on SIGTERM', async () => {
    const file = script('loop.json', { loop: [{ text: 'ping' }, { text: ['po', 'ng'] }] });
    const { child, output, exited } = run(['--script', file, '--host', '127.0.0.1']);
    const url = await listeningUrl(output);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'test', maxRetries: 0 });
    const answers = [];
    for (let i = 0; i < 3; i += 1) {
      const completion = await client.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'x' }],
      });
      answers.push(completion.choices[0]?.message.content);
    }
    expect(answers).toEqual(['ping', 'pong', 'ping']);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('serves steps once each, then answers unplanned calls with 500', async () => {
    const file = script('steps.json', { steps: [{ text: 'only once' }] });
    const { child, output, exited } = run(['--script', file, '--port', '0']);
    const client = new OpenAI({ baseURL: `${await listeningUrl(output)}/v1`, apiKey: 'test', maxRetries: 0 });
    const first = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(first.choices[0]?.message.content).toBe('only once');
    const second = await client.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(second).toBeInstanceOf(OpenAI.InternalServerError);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('--strict refuses what the API refuses, with its error, and then answers a valid call', async () => {
    const file = script('strict.json', { steps: [{ text: 'valid' }] });
    const { child, output, exited } = run(['--script', file, '--strict']);
    const url = await listeningUrl(output);
    expect(output()).toContain('(strict)');
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'test', maxRetries: 0 });
    const user = [{ role: 'user' as const, content: 'x' }];
    const refused = await client.chat.completions
      .create({ model: 'o3', messages: user, temperature: 0.5 })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('temperature');
    const answered = await client.chat.completions.create({ model: 'o3', messages: user });
    expect(answered.choices[0]?.message.content).toBe('valid');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('exits 2 with a clear message for a bad script', async () => {
    const file = script('bad.json', { answers: [] });
    const { output, exited } = run(['--script', file]);
    expect(await exited).toBe(2);
    expect(output()).toMatch(/no "steps" or "loop" array/);
  });
});
