import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import { join } from 'node:path';
import { AgentError } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { skipUnless } from '../../../tooling/vitest/skip.js';
import { createToolOutputHook } from '../src/index.js';
import { OWNER_FILE, removeDeadSessionDirs } from '../src/owner.js';
import { parseElapsed, parseStartTicks } from '../src/process-identity.js';
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

/** A running process, and when it started (epoch ms, taken just before the spawn). */
async function sleeper(): Promise<{ child: ChildProcess; pid: number; startedAt: number }> {
  const startedAt = Date.now();
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('spawn', resolve));
  return { child, pid: child.pid!, startedAt };
}

/** Field 22 of `/proc/<pid>/stat`: the process's start time in clock ticks since boot. */
function startTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

/** A session directory with an owner file; the start time fields are left out unless given. */
function leftover(
  parent: string,
  name: string,
  pid: number,
  identity: { processStartedAt?: number; startTicks?: number } = {},
): string {
  const dir = join(parent, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, OWNER_FILE),
    JSON.stringify({ pid, processStartedAt: 0, ...identity, createdAt: 0, sessionId: name }),
  );
  writeFileSync(join(dir, 'data'), 'old output');
  return dir;
}

const linux = process.platform === 'linux';

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

  test('what the store refuses is an AgentError with code tool_output_store, the message says why', async () => {
    const store = new ToolOutputStore({ sessionId: 'refusing', storeDir: tempDir() });
    const taken = await store.put(output, 'first');
    const refused = await store.putAt(taken.handle, output, 'again').catch((error: unknown) => error);
    expect(AgentError.is(refused, 'tool_output_store')).toBe(true);
    expect((refused as Error).message).toBe(
      `${JSON.stringify(taken.handle)} is not a handle this store can take`,
    );
    await store.dispose();
    const late = await store.put(output, 'late').catch((error: unknown) => error);
    expect(AgentError.is(late, 'tool_output_store')).toBe(true);
    expect((late as Error).message).toBe('the tool-output store was released (the session is ending)');
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

describe('directories of ended owners', () => {
  test(
    'are removed when a store is created; a live owner, this process and foreign directories stay',
    skipUnless(linux, 'reads start times from /proc/<pid>/stat, which only Linux has'),
    async () => {
      const parent = tempDir();
      const live = await sleeper();
      try {
        const dead = leftover(parent, 'ai-agent-dead', await deadPid());
        const alive = leftover(parent, 'ai-agent-alive', live.pid, { startTicks: startTicks(live.pid) });
        const mine = leftover(parent, 'ai-agent-same-process', process.pid, {
          startTicks: startTicks(process.pid),
        });
        const foreign = join(parent, 'ai-agent-no-owner');
        mkdirSync(foreign);
        const store = new ToolOutputStore({ sessionId: 'new', storeDir: parent });
        await store.put(output, 'data');
        expect(existsSync(dead)).toBe(false);
        expect(existsSync(alive)).toBe(true);
        expect(existsSync(mine)).toBe(true);
        expect(existsSync(foreign)).toBe(true);
        const owner = JSON.parse(readFileSync(join(store.directory!, OWNER_FILE), 'utf8'));
        expect(owner.startTicks).toBe(startTicks(process.pid));
        await store.dispose();
        expect(sessionDirs(parent).sort()).toEqual([
          'ai-agent-alive',
          'ai-agent-no-owner',
          'ai-agent-same-process',
        ]);
      } finally {
        live.child.kill();
      }
    },
  );

  test(
    'every session clears them, one that stores nothing too: a dead pid, and a live pid that started at another time (a reused pid)',
    skipUnless(linux, 'reads start times from /proc/<pid>/stat, which only Linux has'),
    async () => {
      const parent = tempDir();
      const live = await sleeper();
      try {
        const ticks = startTicks(live.pid);
        const dead = leftover(parent, 'ai-agent-dead', await deadPid());
        const reused = leftover(parent, 'ai-agent-reused', live.pid, { startTicks: ticks - 1 });
        const alive = leftover(parent, 'ai-agent-alive', live.pid, { startTicks: ticks });
        const context = recordingContext();
        const hook = createToolOutputHook({ storeDir: parent })(context);
        await hook.dispose();
        expect(existsSync(dead)).toBe(false);
        expect(existsSync(reused)).toBe(false);
        expect(existsSync(alive)).toBe(true);
        expect(context.logs.map((entry) => entry.message)).toContainEqual(
          expect.stringMatching(/^removed 2 tool-output store directories of ended processes/),
        );
      } finally {
        live.child.kill();
      }
    },
  );

  test(
    'without /proc, the start time from ps tells a reused pid from the live owner',
    skipUnless(process.platform !== 'win32', 'runs ps and sends POSIX signals, which Windows has not'),
    async () => {
      const parent = tempDir();
      const live = await sleeper();
      try {
        // Records of a system without /proc: the start time in ms only (ps reports whole seconds).
        const reused = leftover(parent, 'ai-agent-reused', live.pid, {
          processStartedAt: live.startedAt - 60_000,
          startTicks: 1,
        });
        const alive = leftover(parent, 'ai-agent-alive', live.pid, { processStartedAt: live.startedAt });
        const dead = leftover(parent, 'ai-agent-dead', await deadPid(), { processStartedAt: live.startedAt });
        const removed = await removeDeadSessionDirs(nodeFs, parent, { procDir: join(parent, 'no-proc') });
        expect(removed.sort()).toEqual(['ai-agent-dead', 'ai-agent-reused']);
        expect(existsSync(reused)).toBe(false);
        expect(existsSync(dead)).toBe(false);
        expect(existsSync(alive)).toBe(true);
      } finally {
        live.child.kill();
      }
    },
  );

  test('an owner whose start time cannot be found out keeps its directory', async () => {
    const parent = tempDir();
    const live = await sleeper();
    try {
      const kept = leftover(parent, 'ai-agent-unknown', live.pid, { processStartedAt: 0 });
      const removed = await removeDeadSessionDirs(nodeFs, parent, {
        procDir: join(parent, 'no-proc'),
        psStartTimes: async () => new Map(),
      });
      expect(removed).toEqual([]);
      expect(existsSync(kept)).toBe(true);
    } finally {
      live.child.kill();
    }
  });

  test('parses the start time out of a /proc stat line whose command holds spaces and parentheses', () => {
    const stat = `4242 (evil) name (x)) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 200`;
    expect(parseStartTicks(stat)).toBe(987654);
    expect(parseElapsed('1-02:03:04')).toBe(((26 * 60 + 3) * 60 + 4) * 1000);
    expect(parseElapsed('03:04')).toBe(184_000);
    expect(parseElapsed('nonsense')).toBeUndefined();
  });
});
