import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import {
  agentFile,
  isolatedEnv,
  REPO_DIR,
  removeWorkspaces,
  report,
  runCli,
  type Step,
  scriptedServer,
  workspace,
} from './helpers.js';

afterAll(removeWorkspaces);

// Issue 37: a snapshot without an integrity tag is never resumed, whatever version it claims;
// `agent sessions seal` seals, once, those a release before tags wrote (version 1), and then
// `agent resume` continues them.

/** The part of better-sqlite3 the test uses. */
interface SqliteFile {
  prepare<P extends unknown[], R = unknown>(
    sql: string,
  ): { get(...params: P): R | undefined; run(...params: P): unknown };
  close(): void;
}

// The CLI has no SQLite driver of its own: the cache package's, to write the store as an older
// release (or someone with access to the file) would.
const Database = createRequire(join(REPO_DIR, 'packages/cache/package.json'))('better-sqlite3') as new (
  path: string,
) => SqliteFile;

const callHelper: Step = () => ({
  text: 'Asking the helper.',
  toolCalls: [{ id: 'call_h1', name: 'agent__helper', arguments: { prompt: 'say hi' } }],
});

/** The snapshot as a release before tags stored it: no tag line, version 1, calls without `argumentsHash`. */
function asVersion1(snapshot: Record<string, unknown>): Record<string, unknown> {
  const {
    pending,
    decisions: _decisions,
    ...rest
  } = snapshot as {
    pending?: Record<string, unknown>[];
    decisions?: unknown;
  };
  return {
    ...rest,
    version: 1,
    ...(pending === undefined ? {} : { pending: pending.map(({ argumentsHash: _hash, ...call }) => call) }),
  };
}

test('agent sessions seal: an untagged version 1 snapshot is refused by agent resume until sealed, then resumes; a stripped version 2 one stays refused', async () => {
  const server = await scriptedServer([
    callHelper,
    callHelper,
    report('hi', { format: 'sub-agent' }),
    report('The helper said hi.'),
  ]);
  const ws = workspace(server, {
    'main.ai': agentFile(
      'models: test/scripted-model\nagents: [helper.ai]\napproval:\n  tools: [agent__helper]',
    ),
    'helper.ai': agentFile('models: test/scripted-model\ndescription: Says hi'),
  });
  const storePath = ws.file('state/sessions.sqlite');
  const config = JSON.parse(readFileSync(ws.file('agent.json'), 'utf8')) as Record<string, unknown>;
  ws.write('agent.json', JSON.stringify({ ...config, sessions: { path: storePath } }));
  const cli = (args: string[]) =>
    runCli([...args, '--config', ws.file('agent.json')], { cwd: ws.dir, env: isolatedEnv(ws) });

  expect((await cli(['run', 'main.ai', 'Greet me.', '--session-id', 'old-1'])).code).toBe(10);
  expect((await cli(['run', 'main.ai', 'Greet me.', '--session-id', 'stripped-2'])).code).toBe(10);
  expect(server.calls).toBe(2);

  // Rewrite both in the file: old-1 as the release before tags wrote it, stripped-2 only untagged.
  const db = new Database(storePath);
  const read = db.prepare<[string], { snapshot: string }>('SELECT snapshot FROM sessions WHERE id = ?');
  const write = db.prepare('UPDATE sessions SET snapshot = ? WHERE id = ?');
  const untag = (text: string) => text.slice(text.indexOf('\n') + 1);
  const stored = (id: string) => read.get(id)!.snapshot;
  expect(stored('old-1')).toMatch(/^agent-snapshot hmac-sha256=[0-9a-f]{64}\n/);
  write.run(JSON.stringify(asVersion1(JSON.parse(untag(stored('old-1'))))), 'old-1');
  write.run(untag(stored('stripped-2')), 'stripped-2');
  const strippedText = stored('stripped-2');
  db.close();

  for (const id of ['old-1', 'stripped-2']) {
    const refused = await cli(['resume', id, '--approve', 'call_h1']);
    expect(refused.code).toBe(7);
    expect(refused.stderr).toContain(`the stored snapshot of session ${id} has no integrity tag`);
    expect(refused.stderr).toContain("seal the store's older snapshots once with `agent sessions seal`");
  }
  expect(server.calls).toBe(2);

  const sealed = await cli(['sessions', 'seal']);
  expect(sealed.stderr).toBe('');
  expect(sealed.code).toBe(0);
  expect(sealed.stdout).toBe(
    `sealed 1 session snapshot written before integrity tags (store ${storePath})\n` +
      'skipped session stripped-2: it is version 2, and only version 1 snapshots (written before tags) are sealed: a newer one without a tag was written or changed outside this program\n',
  );

  const resumed = await cli(['resume', 'old-1', '--approve', 'call_h1']);
  expect(resumed.stderr).toBe('');
  expect(resumed.code).toBe(0);
  expect(resumed.stdout).toContain('The helper said hi.');
  expect(server.calls).toBe(4);

  const still = await cli(['resume', 'stripped-2', '--approve', 'call_h1']);
  expect(still.code).toBe(7);
  expect(still.stderr).toContain('the stored snapshot of session stripped-2 has no integrity tag');
  const after = new Database(storePath);
  expect(after.prepare('SELECT snapshot FROM sessions WHERE id = ?').get('stripped-2')).toEqual({
    snapshot: strippedText,
  });
  after.close();
  expect(server.calls).toBe(4);
});

test('agent sessions seal: a config that cannot be used exits 7 saying why; an unknown subcommand is a usage error', async () => {
  const ws = workspace(undefined);
  ws.write('agent.json', JSON.stringify({ sessions: { store: 'redis' } }));
  const bad = await runCli(['sessions', 'seal', '--config', ws.file('agent.json')], {
    cwd: ws.dir,
    env: isolatedEnv(ws),
  });
  expect(bad.code).toBe(7);
  expect(bad.stderr).toContain('url');
  expect(bad.stdout).toBe('');
  const unknown = await runCli(['sessions', 'unseal'], { cwd: ws.dir, env: isolatedEnv(ws) });
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain("unknown command 'unseal'");
});
