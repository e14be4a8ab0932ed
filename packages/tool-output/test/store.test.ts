import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createToolOutputHook } from '../src/index.js';
import { OWNER_FILE } from '../src/owner.js';
import { sessionDirName, ToolOutputStore } from '../src/store.js';
import { recordingContext, tempDir } from './helpers.js';

const output = {
  toolName: 'fetch',
  argumentsJson: '{"url":"https://example.com"}',
  bytes: 11,
  lines: 2,
  tokens: 3,
};

function sessionDirs(parent: string): string[] {
  return readdirSync(parent).filter((name) => name.startsWith('ai-agent-'));
}

/** A process that has exited: its pid is dead (ESRCH). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

function sleeper(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
}

function leftover(parent: string, name: string, pid: number): string {
  const dir = join(parent, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, OWNER_FILE),
    JSON.stringify({ pid, processStartedAt: 0, createdAt: 0, sessionId: name }),
  );
  writeFileSync(join(dir, 'data'), 'old output');
  return dir;
}

describe('store lifecycle', () => {
  test('the directory is created on the first store only, mode 0700, one UUID-named file per output', async () => {
    const parent = tempDir();
    const store = new ToolOutputStore({ sessionId: 's-1', storeDir: parent });
    expect(sessionDirs(parent)).toEqual([]);
    const record = await store.put(output, 'hello\nworld');
    expect(sessionDirs(parent)).toEqual(['ai-agent-s-1']);
    const dir = join(parent, 'ai-agent-s-1');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(record.handle).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(readFileSync(join(dir, record.handle), 'utf8')).toBe('hello\nworld');
    expect(record).toMatchObject({ ...output, avgLineBytes: 6 });
    const owner = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8'));
    expect(owner).toMatchObject({ pid: process.pid, sessionId: 's-1' });
    await store.dispose();
    expect(existsSync(dir)).toBe(false);
  });

  test('a text with surrogate pairs across write slices is stored byte for byte', async () => {
    const parent = tempDir();
    const store = new ToolOutputStore({ sessionId: 'emoji', storeDir: parent });
    const text = `${'a'.repeat((1 << 20) - 1)}😀${'é'.repeat(1000)}`;
    const bytes = Buffer.byteLength(text);
    const record = await store.put({ ...output, bytes }, text);
    expect(readFileSync(store.pathOf(record), 'utf8')).toBe(text);
    await store.dispose();
  });

  test('dispose while a write is under way (an abort) still removes everything', async () => {
    const parent = tempDir();
    const store = new ToolOutputStore({ sessionId: 'aborted', storeDir: parent });
    const writing = store.put(output, 'x'.repeat(8 << 20)).catch((error: unknown) => error);
    await store.dispose();
    await writing;
    expect(sessionDirs(parent)).toEqual([]);
    await expect(store.put(output, 'late')).rejects.toThrow(/released/);
  });

  test('a hook disposed after an aborted run leaves no directory', async () => {
    const parent = tempDir();
    const controller = new AbortController();
    const hook = createToolOutputHook({ storeDir: parent })(recordingContext({ signal: controller.signal }));
    const sizing = hook.size(
      {
        toolName: 'big',
        callId: 'c1',
        argumentsJson: '{}',
        text: 'y'.repeat(4 << 20),
        bytes: 4 << 20,
        overSizeCap: true,
        estimatedTokens: 1 << 20,
        remainingTokens: 100_000,
      },
      controller.signal,
    );
    controller.abort();
    await hook.dispose();
    await sizing;
    await hook.dispose();
    expect(sessionDirs(parent)).toEqual([]);
  });

  test('directories of dead processes are removed; a live process keeps its directory', async () => {
    const parent = tempDir();
    const live = sleeper();
    try {
      const dead = leftover(parent, 'ai-agent-dead', await deadPid());
      const alive = leftover(parent, 'ai-agent-alive', live.pid!);
      const mine = leftover(parent, 'ai-agent-same-process', process.pid);
      const foreign = join(parent, 'ai-agent-no-owner');
      mkdirSync(foreign);
      const store = new ToolOutputStore({ sessionId: 'new', storeDir: parent });
      await store.put(output, 'data');
      expect(existsSync(dead)).toBe(false);
      expect(existsSync(alive)).toBe(true);
      expect(existsSync(mine)).toBe(true);
      expect(existsSync(foreign)).toBe(true);
      await store.dispose();
      expect(sessionDirs(parent).sort()).toEqual([
        'ai-agent-alive',
        'ai-agent-no-owner',
        'ai-agent-same-process',
      ]);
    } finally {
      live.kill();
    }
  });

  test('two live sessions with the same id get separate directories', async () => {
    const parent = tempDir();
    const a = new ToolOutputStore({ sessionId: 'twin', storeDir: parent });
    const b = new ToolOutputStore({ sessionId: 'twin', storeDir: parent });
    await a.put(output, 'a');
    await b.put(output, 'b');
    expect(a.directory).not.toBe(b.directory);
    await a.dispose();
    expect(sessionDirs(parent)).toHaveLength(1);
    await b.dispose();
    expect(sessionDirs(parent)).toEqual([]);
  });

  test('session ids become safe directory names', () => {
    expect(sessionDirName('abc-123_X')).toBe('ai-agent-abc-123_X');
    expect(sessionDirName('../../etc/passwd')).toBe('ai-agent-______etc_passwd');
    expect(sessionDirName('')).toBe('ai-agent-session');
  });

  test('the default parent is the system temp directory', async () => {
    const store = new ToolOutputStore({ sessionId: `default-${process.pid}-${Date.now()}` });
    await store.put(output, 'x');
    expect(store.directory?.startsWith(join((await import('node:os')).tmpdir(), 'ai-agent-'))).toBe(true);
    await store.dispose();
    expect(store.directory).toBeUndefined();
  });
});
