import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { RecordNode, SessionRecord } from '@agent/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { formatDuration } from '../../src/output/session-tree.js';
import {
  agentFile,
  isolatedEnv,
  removeWorkspaces,
  report,
  runCli,
  type Step,
  scriptedServer,
  workspace,
} from './helpers.js';

afterAll(removeWorkspaces);

// Issue 18, "Snapshots and inspection": `persistence.sessionsDir` keeps a gzip record of each
// finished session, `persistence.billingFile` a ledger of every accounting entry, and
// `agent inspect` reads a record back, all through the built CLI against the scripted server.

/** A secret of the config that the model repeats: it must reach no file. */
const API_KEY = 'zq-private-apikey-93f1c0d7';

const delegate: Step = () => ({
  text: 'Asking the helper and the broken tool.',
  toolCalls: [
    { id: 'call_helper', name: 'agent__helper', arguments: { prompt: 'say hi' } },
    { id: 'call_broken', name: 'no_such_tool', arguments: { token: API_KEY } },
  ],
  usage: { inputTokens: 100, outputTokens: 20 },
});

async function persistedWorkspace(steps: Step[]) {
  const server = await scriptedServer(steps);
  const ws = workspace(server, {
    'main.ai': agentFile('models: test/scripted-model\nagents: [helper.ai]\nmaxTurns: 4'),
    'helper.ai': agentFile('models: test/scripted-model\ndescription: Says hi'),
  });
  ws.write(
    'agent.json',
    JSON.stringify({
      providers: {
        test: {
          type: 'openai-compatible',
          baseURL: `${server.url}/v1`,
          apiKey: API_KEY,
          models: { 'scripted-model': { pricing: { input: 1, output: 2 } } },
        },
      },
      persistence: { sessionsDir: 'records', billingFile: 'ledger.jsonl' },
    }),
  );
  const cli = (args: string[]) =>
    runCli([...args, '--config', ws.file('agent.json')], { cwd: ws.dir, env: isolatedEnv(ws) });
  return { server, ws, cli };
}

function find(node: RecordNode, test: (n: RecordNode) => boolean): RecordNode | undefined {
  if (test(node)) return node;
  for (const child of node.children) {
    const found = find(child, test);
    if (found !== undefined) return found;
  }
  return undefined;
}

const indentOf = (line: string) => line.search(/[a-z]/);

describe('agent inspect', () => {
  it('a run with a sub-agent and a failing tool leaves a record that inspect shows as a tree', async () => {
    const { ws, cli } = await persistedWorkspace([
      delegate,
      report('hi from the helper', { format: 'sub-agent' }),
      report('All done.'),
    ]);
    const run = await cli(['run', 'main.ai', 'Delegate', '--session-id', 'run-one']);
    expect(run.code, run.stderr).toBe(0);

    const path = ws.file('records/run-one.json.gz');
    expect(readdirSync(ws.file('records'))).toEqual(['run-one.json.gz']);
    expect(statSync(ws.file('records')).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const text = gunzipSync(readFileSync(path)).toString('utf8');
    // The key was in the config and in a tool's arguments: the record has it redacted.
    expect(text).not.toContain(API_KEY);
    const record = JSON.parse(text) as SessionRecord;
    expect(record).toMatchObject({
      kind: 'agent-session-record',
      version: 2,
      sessionId: 'run-one',
      agent: 'main',
    });
    // Version 2: the top session's tape (the key was redacted in it too) and what the run was asked.
    expect(record.tree.tape).toMatchObject({ agentPath: 'main', ordinal: 0 });
    expect(record.tree.tape?.calls.length).toBeGreaterThan(0);
    expect(record.input?.prompt).toBeDefined();
    expect(record.finalReport?.content).toBe('All done.');
    expect(record.totals).toMatchObject({ llmCalls: 3, inputTokens: 300, outputTokens: 60 });

    // The sub-agent hangs under its tool call, with its own LLM call and the payloads.
    const helperCall = find(record.tree, (n) => n.kind === 'tool' && n.label === 'agent__helper')!;
    expect(helperCall.payload?.arguments).toContain('say hi');
    expect(helperCall.payload?.result).toContain('hi from the helper');
    const child = helperCall.children[0]!;
    expect(child).toMatchObject({ kind: 'session', label: 'helper', status: 'ok' });
    expect(find(child, (n) => n.kind === 'llm')?.accounting).toMatchObject({
      type: 'llm',
      model: 'scripted-model',
    });
    const broken = find(record.tree, (n) => n.label === 'no_such_tool')!;
    expect(broken.status).toBe('failed');
    expect(broken.payload?.arguments).toContain('[REDACTED]');
    const firstLlm = find(record.tree, (n) => n.kind === 'llm')!;
    expect(firstLlm.payload?.response).toBe('Asking the helper and the broken tool.');
    expect(record.logs.length).toBeGreaterThan(0);

    const byId = await cli(['inspect', 'run-one']);
    expect(byId.code, byId.stderr).toBe(0);
    const out = byId.stdout;
    expect(out).toContain('session run-one  agent main  ok  EXIT-FINAL-ANSWER');
    // 3 calls of 100 in / 20 out at $1 / $2 per million tokens.
    expect(out).toContain('totals: 3 LLM calls, 2 tool calls, 300 in / 60 out tokens (0 cached), $0.000420');
    expect(out).toContain(`duration ${formatDuration(record.durationMs)}`);
    const lines = out.split('\n');
    const at = (needle: string) => lines.findIndex((line) => line.includes(needle));
    const toolLine = lines[at('tool agent__helper')]!;
    const helperLine = lines[at('session helper')]!;
    expect(toolLine).toContain(`ok  ${formatDuration(helperCall.endedAt! - helperCall.startedAt)}`);
    expect(helperLine).toContain('100 in / 20 out tokens  $0.000140');
    expect(indentOf(helperLine)).toBeGreaterThan(indentOf(toolLine));
    expect(at('session helper')).toBeGreaterThan(at('tool agent__helper'));
    expect(lines[at('tool no_such_tool')]).toContain('failed');
    expect(out).toContain('llm test:scripted-model  ok');
    expect(out).toContain('response: Asking the helper and the broken tool.');

    const byPath = await cli(['inspect', path]);
    expect(byPath.code, byPath.stderr).toBe(0);
    expect(byPath.stdout).toBe(out);
    const json = await cli(['inspect', 'run-one', '--json']);
    expect(JSON.parse(json.stdout)).toEqual(record);
  });

  it('long payloads are folded unless --full', async () => {
    const long = `${'a long answer line. '.repeat(30)}THE END`;
    const { cli } = await persistedWorkspace([
      () => ({ text: long, toolCalls: [{ id: 'c1', name: 'no_such_tool', arguments: {} }] }),
      report('done'),
    ]);
    expect((await cli(['run', 'main.ai', 'Go', '--session-id', 'folded'])).code).toBe(0);
    const folded = await cli(['inspect', 'folded']);
    expect(folded.stdout).toContain(`(${long.length} characters, --full to show all)`);
    expect(folded.stdout).not.toContain('THE END');
    const full = await cli(['inspect', 'folded', '--full']);
    expect(full.stdout).toContain('THE END');
  });

  it('the ledger gets one line per accounting entry, across runs', async () => {
    const { ws, cli } = await persistedWorkspace([
      delegate,
      report('hi', { format: 'sub-agent' }),
      report('first'),
      report('second'),
    ]);
    expect((await cli(['run', 'main.ai', 'One', '--session-id', 'one'])).code).toBe(0);
    expect((await cli(['run', 'main.ai', 'Two', '--session-id', 'two'])).code).toBe(0);
    const ledger = readFileSync(ws.file('ledger.jsonl'), 'utf8').trimEnd().split('\n');
    const entries = ledger.map((line) => JSON.parse(line) as { sessionId: string; type: string });
    const recordOf = (id: string) =>
      JSON.parse(gunzipSync(readFileSync(ws.file(`records/${id}.json.gz`))).toString()) as SessionRecord;
    const one = recordOf('one');
    const two = recordOf('two');
    expect(entries.filter((e) => e.sessionId === 'one')).toHaveLength(one.accounting.length);
    expect(entries.filter((e) => e.sessionId === 'two')).toHaveLength(two.accounting.length);
    expect(entries).toHaveLength(one.accounting.length + two.accounting.length);
    expect(entries.filter((e) => e.type === 'llm')).toHaveLength(4);
    expect(statSync(ws.file('ledger.jsonl')).mode & 0o777).toBe(0o600);
    expect(readFileSync(ws.file('ledger.jsonl'), 'utf8')).not.toContain(API_KEY);
  });

  it('bad input: a missing id, a file that is not a record, a newer version, no sessionsDir', async () => {
    const { ws, cli } = await persistedWorkspace([]);
    const missing = await cli(['inspect', 'nope']);
    expect(missing.code).toBe(7);
    expect(missing.stderr).toContain('no session "nope" in');
    expect(missing.stderr).toContain('records');

    ws.write('plain.json.gz', 'this is not gzip');
    const corrupt = await cli(['inspect', 'plain.json.gz']);
    expect(corrupt.code).toBe(7);
    expect(corrupt.stderr).toContain('not a session record: not gzip-compressed data');

    writeFileSync(ws.file('other.json.gz'), gzipSync('{"hello": 1}'));
    const other = await cli(['inspect', 'other.json.gz']);
    expect(other.code).toBe(7);
    expect(other.stderr).toContain('expected JSON with "kind": "agent-session-record"');

    writeFileSync(
      ws.file('future.json.gz'),
      gzipSync(JSON.stringify({ kind: 'agent-session-record', version: 99, sessionId: 'f', tree: {} })),
    );
    const newer = await cli(['inspect', 'future.json.gz']);
    expect(newer.code).toBe(7);
    expect(newer.stderr).toContain(
      'session record version 99 is newer than this version of agent reads (up to 2)',
    );

    ws.write('agent.json', JSON.stringify({ providers: {} }));
    const unset = await cli(['inspect', 'some-id']);
    expect(unset.code).toBe(7);
    expect(unset.stderr).toContain('no persistence.sessionsDir is configured');
    const noArgument = await runCli(['inspect'], { cwd: ws.dir, env: isolatedEnv(ws) });
    expect(noArgument.code).toBe(2);
  });

  it('hostile records: a gzip bomb and a too-deep tree are refused fast, with the bound they broke', async () => {
    const { ws, cli } = await persistedWorkspace([]);
    const record = (tree: string, error = '') =>
      `{"kind":"agent-session-record","version":1,"sessionId":"h","agent":"a","startedAt":0,"endedAt":1,"durationMs":1,"success":false,"exitCode":"EXIT-SUCCESS","error":"${error}","totals":{},"tree":${tree}}`;
    const leaf = '{"id":"n","kind":"session","label":"l","startedAt":0,"status":"ok","children":[';
    // 17 MiB once inflated, a few KB on disk.
    writeFileSync(
      ws.file('bomb.json.gz'),
      gzipSync(record(`${leaf}]}`, 'x'.repeat(17 * 1024 * 1024)), { level: 9 }),
    );
    const started = Date.now();
    const bomb = await cli(['inspect', 'bomb.json.gz']);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(bomb.code).toBe(7);
    expect(bomb.stderr).toContain('inflates to more than 16 MiB, the bound of a session record');

    writeFileSync(ws.file('deep.json.gz'), gzipSync(record(`${leaf.repeat(20_000)}${']}'.repeat(20_000)}`)));
    const deep = await cli(['inspect', 'deep.json.gz', '--json']);
    expect(deep.code).toBe(7);
    expect(deep.stderr).toContain('its tree is deeper than 256 levels, the bound of a session record');
  });
});
