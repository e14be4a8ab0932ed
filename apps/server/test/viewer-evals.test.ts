// The viewer's eval page API (`--evals <dir>`): the runs `agent eval --out` wrote, and their
// cases' sessions, for operator tokens only; bad run ids, newer files and a missing directory
// are refused with what was wrong.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVAL_RUN_VERSION } from '@agent/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServerArgs } from '../src/cli-options.js';
import { CASE_SESSIONS, evalRun, writeEvalRuns, writeRun } from './eval-fixtures.js';
import {
  type AgentDir,
  agentDir,
  finalReport,
  type RunningServer,
  SERVER_BIN,
  serverEnv,
  startServer,
} from './helpers.js';

let agents: AgentDir;
let evals: string;
let server: RunningServer;
const written = {} as ReturnType<typeof writeEvalRuns>;

beforeAll(async () => {
  agents = await agentDir(() => ({ text: finalReport('ok') }));
  evals = mkdtempSync(join(tmpdir(), 'viewer-evals-'));
  Object.assign(written, writeEvalRuns(evals));
  // A run written by a newer agent eval, and a directory that is no run (no results.json).
  writeRun(evals, { ...evalRun('r3', Date.UTC(2026, 10, 21), []), version: EVAL_RUN_VERSION + 1 });
  mkdirSync(join(evals, 'scratch'));
  server = await startServer(
    [
      ...['--agent', agents.files[0]!, '--api', '0', '--viewer', '0', '--evals', evals],
      ...['--token', 'user-token', '--operator-token', 'ops-token'],
    ],
    agents.dir,
    2,
  );
});

afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  await agents?.close();
  rmSync(evals, { recursive: true, force: true });
});

const viewer = () => server.urls.viewer!.replace(/\/$/, '');
const get = (path: string, token?: string, init: RequestInit = {}) =>
  fetch(`${viewer()}${path}`, {
    ...init,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });

describe('the eval runs API', () => {
  it('lists the runs newest first with their summaries and baseline counts; an unreadable run says why', async () => {
    const response = await get('/api/evals', 'ops-token');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { dir: string; runs: Record<string, unknown>[] };
    expect(body.dir).toBe(evals);
    expect(body.runs.map((run) => run.runId)).toEqual(['r2', 'r1', 'r3']);
    expect(body.runs[0]).toMatchObject({
      agent: 'qa.ai',
      dataset: 'qa.jsonl',
      summary: { cases: 2, passed: 1, failed: 1 },
      baseline: { runId: 'r1', regressed: 1, improved: 0, unchanged: 1, added: 0, removed: 0 },
    });
    expect(body.runs[1]).not.toHaveProperty('baseline');
    expect(body.runs[2]!.error).toMatch(/eval run version 2 is newer than this version reads \(up to 1\)/);
  });

  it('answers one run with its whole results file', async () => {
    const response = await get('/api/evals/r2', 'ops-token');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(written.run);
  });

  it('refuses a bad run id, an unknown run and a newer results file, saying why', async () => {
    for (const bad of ['bad%20id', '...', 'a%2Fb', 'x'.repeat(101)]) {
      const response = await get(`/api/evals/${bad}`, 'ops-token');
      expect(response.status, bad).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/run id: expected 1-100 letters/);
    }
    const unknown = await get('/api/evals/nope', 'ops-token');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toBe(`no eval run nope in ${evals}`);
    const scratch = await get('/api/evals/scratch', 'ops-token');
    expect(scratch.status).toBe(404);
    const newer = await get('/api/evals/r3', 'ops-token');
    expect(newer.status).toBe(422);
    expect(((await newer.json()) as { error: string }).error).toMatch(
      /version 2 is newer .* upgrade to read it/,
    );
  });

  it("serves a case's session from the run's records to operators only", async () => {
    const ops = await get(`/api/sessions/${CASE_SESSIONS.sum}`, 'ops-token');
    expect(ops.status).toBe(200);
    expect(await ops.json()).toMatchObject({ sessionId: CASE_SESSIONS.sum, agent: 'qa', status: 'ok' });
    const user = await get(`/api/sessions/${CASE_SESSIONS.sum}`, 'user-token');
    expect(user.status).toBe(404);
    // The eval records stay out of the session list: the eval page links to them.
    const listed = (await (await get('/api/sessions', 'ops-token')).json()) as { sessions: unknown[] };
    expect(listed.sessions).toEqual([]);
  });

  it('refuses eval runs to a client token (403) and to no token (401), and answers GET only', async () => {
    for (const path of ['/api/evals', '/api/evals/r2']) {
      const user = await get(path, 'user-token');
      expect(user.status).toBe(403);
      expect(((await user.json()) as { error: string }).error).toMatch(/operator tokens only/);
      expect((await get(path)).status).toBe(401);
    }
    expect((await get('/api/evals', 'ops-token', { method: 'POST' })).status).toBe(405);
    const page = await get('/api/evals/r2', 'ops-token');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('says where the runs went when the directory is removed while the server runs', async () => {
    const gone = mkdtempSync(join(tmpdir(), 'viewer-evals-gone-'));
    const other = await startServer(
      [
        '--agent',
        agents.files[0]!,
        '--api',
        '0',
        '--viewer',
        '0',
        '--evals',
        gone,
        '--operator-token',
        'ops-token',
      ],
      agents.dir,
      2,
    );
    try {
      rmSync(gone, { recursive: true });
      const response = await fetch(`${other.urls.viewer!.replace(/\/$/, '')}/api/evals`, {
        headers: { authorization: 'Bearer ops-token' },
      });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: string }).error).toMatch(
        new RegExp(`the evals directory ${gone} cannot be read .*ENOENT`),
      );
    } finally {
      other.child.kill('SIGTERM');
      await other.exited;
    }
  });
});

describe('--evals', () => {
  const run = (args: string[]) =>
    spawnSync(
      process.execPath,
      [SERVER_BIN, '--agent', agents.files[0]!, '--api', '0', '--operator-token', 'tok', ...args],
      {
        cwd: agents.dir,
        encoding: 'utf8',
        env: serverEnv(agents.dir),
        timeout: 30_000,
      },
    );

  it('refuses a directory that is not there, and --evals without --viewer', () => {
    const missing = join(evals, 'no-such-dir');
    const refused = run(['--viewer', '0', '--evals', missing]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`--evals: ${missing} is missing`);
    const file = join(evals, 'r1', 'results.json');
    const notDir = run(['--viewer', '0', '--evals', file]);
    expect(notDir.status).toBe(2);
    expect(notDir.stderr).toContain(`--evals: ${file} is not a directory`);
    const alone = run(['--evals', evals]);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain('--evals: the eval page is part of the viewer: give --viewer <port> too');
  });

  it('without --evals the eval API says how to turn it on', async () => {
    const plain = await startServer(
      ['--agent', agents.files[0]!, '--api', '0', '--viewer', '0', '--operator-token', 'ops-token'],
      agents.dir,
      2,
    );
    try {
      const response = await fetch(`${plain.urls.viewer!.replace(/\/$/, '')}/api/evals`, {
        headers: { authorization: 'Bearer ops-token' },
      });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: string }).error).toMatch(
        /start agent-server with --evals <dir>/,
      );
    } finally {
      plain.child.kill('SIGTERM');
      await plain.exited;
    }
  });
});

it('server.json: viewer.evals is relative to the file', () => {
  const config = join(evals, 'server.json');
  mkdirSync(join(evals, 'runs'));
  mkdirSync(join(process.cwd(), 'test-results', 'other'), { recursive: true });
  writeFileSync(
    config,
    JSON.stringify({ viewer: { port: 0, evals: 'runs' }, operatorTokens: ['t'], api: 0 }),
  );
  const parsed = parseServerArgs(['--config', config, '--agent', 'a.ai'], {});
  expect(parsed.viewer).toEqual({ port: 0, evals: join(evals, 'runs') });
  const flagged = parseServerArgs(
    ['--config', config, '--agent', 'a.ai', '--evals', 'test-results/other'],
    {},
  );
  expect(flagged.viewer?.evals).toBe(join(process.cwd(), 'test-results', 'other'));
  writeFileSync(config, JSON.stringify({ viewer: { port: 0, evals: 3 }, operatorTokens: ['t'], api: 0 }));
  expect(() => parseServerArgs(['--config', config, '--agent', 'a.ai'], {})).toThrow(
    /"viewer.evals" must be the path of a directory of eval runs, not 3/,
  );
});
