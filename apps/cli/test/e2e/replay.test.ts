// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is config syntax here
// Issue 40 through the CLI: a session recorded by a scripted run (a REST tool on a loopback API
// that counts its hits, a sub-agent) is replayed by `agent replay` with no API key and no
// model server of its own: the answers come from the record.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync, gzipSync } from 'node:zlib';
import { startModelServer } from '@agent/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  agentFile,
  isolatedEnv,
  nonceOf,
  removeWorkspaces,
  runCli,
  type Workspace,
  workspace,
} from './helpers.js';

const KEY_VAR = 'REPLAY_E2E_UNSET_KEY';
const closers: (() => Promise<void>)[] = [];
let ws: Workspace;
let recordFile: string;
let apiHits = 0;
let modelCalls = () => 0;

/** The FINAL tag answer of the session that sent `messages`. */
const final = (messages: Parameters<typeof nonceOf>[0], body: string) => {
  const tag = `ai-agent-${nonceOf(messages)}-FINAL`;
  return `<${tag} tool="agent__final_report" status="success" format="markdown">${body}</${tag}>`;
};

beforeAll(async () => {
  // The clock API: counts hits, so a replay that runs the tool for real shows.
  const api = createServer((_req, res) => {
    apiHits += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"now":"noon"}');
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => api.close(() => resolve())));
  const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

  // The recording's model: the lead calls the clock and its helper, then reports; the helper reports.
  const model = await startModelServer({
    handler: (request) => {
      const user = request.messages
        .filter((m) => m.role === 'user')
        .map((m) => m.content)
        .join('\n');
      if (user.includes('Say hi')) return { text: final(request.messages, 'hi') };
      if (!request.messages.some((m) => m.role === 'tool'))
        return {
          toolCalls: [
            { name: 'rest__clock', arguments: {} },
            { name: 'agent__helper', arguments: { prompt: 'Say hi' } },
          ],
          usage: { inputTokens: 900, outputTokens: 12 },
        };
      return { text: final(request.messages, 'It is noon; the helper says hi.') };
    },
  });
  closers.push(() => model.close());
  modelCalls = () => model.requests.length;

  ws = workspace(undefined, {
    'lead.ai': agentFile(
      'models: test/scripted-model\nmaxTurns: 4\ntools: [clock]\nagents: [helper.ai]',
      'You tell the time.',
    ),
    'helper.ai': agentFile(
      'models: test/scripted-model\nmaxTurns: 2\ndescription: Says a word',
      'You say words.',
    ),
    'changed.ai': agentFile(
      'models: test/scripted-model\nmaxTurns: 4\ntools: [clock]\nagents: [helper.ai]',
      'You tell the time, precisely.',
    ),
  });
  ws.write(
    'agent.json',
    JSON.stringify({
      providers: {
        test: { type: 'openai-compatible', baseURL: `${model.url}/v1`, apiKey: `\${${KEY_VAR}}` },
      },
      restTools: {
        clock: {
          description: 'The time now',
          url: `${apiUrl}/time`,
          parametersSchema: { type: 'object', properties: {} },
        },
      },
      persistence: { sessionsDir: './records' },
    }),
  );
  const run = await cli(['run', ws.file('lead.ai'), 'What time is it?'], { [KEY_VAR]: 'sk-recording-key' });
  expect(run.stderr).not.toContain('sk-recording-key');
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('It is noon; the helper says hi.');
  const [name] = readdirSync(ws.file('records'));
  recordFile = ws.file(`records/${name}`);
  expect(apiHits).toBe(1);
}, 120_000);

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
  removeWorkspaces();
});

/** `agent ... --config agent.json` in the workspace, with no API key in the environment. */
function cli(args: string[], env: Record<string, string | undefined> = {}) {
  return runCli([...args, '--config', ws.file('agent.json')], {
    cwd: ws.dir,
    env: { ...isolatedEnv(ws), [KEY_VAR]: undefined, ...env },
    timeoutMs: 90_000,
  });
}

describe('agent replay', () => {
  test('replays a recorded run to a match under every --compare, without a key, the model or the tool', async () => {
    const calls = modelCalls();
    for (const mode of ['report', 'calls', 'requests']) {
      const replay = await cli(['replay', recordFile, '--compare', mode]);
      expect(replay.code, `${mode}: ${replay.stdout}${replay.stderr}`).toBe(0);
      expect(replay.stdout).toContain(`: match under --compare ${mode}`);
    }
    const json = await cli(['replay', recordFile, '--compare', 'requests', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ match: true, compare: 'requests', divergences: [] });
    // Neither the recording's model server nor the clock API was asked anything.
    expect(modelCalls()).toBe(calls);
    expect(apiHits).toBe(1);
  }, 180_000);

  test('a changed prompt: --compare requests prints the request diff and exits 13; --compare report still 0', async () => {
    const requests = await cli([
      'replay',
      recordFile,
      '--agent',
      ws.file('changed.ai'),
      '--compare',
      'requests',
    ]);
    expect(requests.code, requests.stderr).toBe(13);
    expect(requests.stdout).toContain('diverged');
    expect(requests.stdout).toContain('request: lead#0: model request 1 differs from the record');
    expect(requests.stdout).toMatch(/^\s+-\s+You tell the time\.$/m);
    expect(requests.stdout).toMatch(/^\s+\+\s+You tell the time, precisely\.$/m);
    const report = await cli(['replay', recordFile, '--agent', ws.file('changed.ai'), '--compare', 'report']);
    expect(report.code, report.stdout).toBe(0);
  }, 120_000);

  test('--live-tools runs the real tool', async () => {
    const before = apiHits;
    const replay = await cli(['replay', recordFile, '--live-tools', '--compare', 'calls']);
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    expect(apiHits).toBe(before + 1);
  }, 120_000);

  test('a directory of records is a suite: a summary table and JUnit XML; a version 1 record is an error', async () => {
    const suite = ws.file('suite');
    mkdirSync(suite, { recursive: true });
    copyFileSync(recordFile, `${suite}/checkout-a.json.gz`);
    copyFileSync(recordFile, `${suite}/checkout-b.json.gz`);
    const junit = ws.file('replay.xml');
    const passing = await cli(['replay', suite, '--junit', junit]);
    expect(passing.code, passing.stdout + passing.stderr).toBe(0);
    expect(passing.stdout).toMatch(/^record\s+result\s+divergences\s+time$/m);
    expect(passing.stdout).toMatch(/^checkout-a\.json\.gz\s+match\s+0\s+/m);
    expect(passing.stdout).toContain('2 records: 2 matched, 0 diverged, 0 not replayable');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite [^>]*tests="2"[^>]*failures="0"/);
    expect(xml).toContain('name="checkout-b.json.gz"');

    writeFileSync(`${suite}/old.json.gz`, versionOne(recordFile));
    const mixed = await cli(['replay', suite, '--junit', junit]);
    expect(mixed.code).toBe(7);
    expect(mixed.stdout).toContain('3 records: 2 matched, 0 diverged, 1 not replayable');
    expect(mixed.stdout).toContain('old.json.gz: not replayable:');
    expect(readFileSync(junit, 'utf8')).toMatch(/<testsuite [^>]*tests="3"[^>]*errors="1"/);
  }, 240_000);

  test('a version 1 record is refused with what to do (exit 7)', async () => {
    const old = ws.write('v1.json.gz', '');
    writeFileSync(old, versionOne(recordFile));
    const replay = await cli(['replay', old]);
    expect(replay.code).toBe(7);
    expect(replay.stderr).toContain(
      'cannot replay: it is a version 1 session record, which keeps no model requests or answers; record the session again',
    );
  }, 60_000);
});

/** The record as version 1 wrote it: no input, no tapes. */
function versionOne(file: string): Buffer {
  const record = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8'));
  record.version = 1;
  delete record.input;
  const strip = (node: { tape?: unknown; children: unknown[] }) => {
    delete node.tape;
    for (const child of node.children) strip(child as typeof node);
  };
  strip(record.tree);
  return gzipSync(JSON.stringify(record));
}
