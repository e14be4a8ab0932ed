// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is config syntax here
// Issue 40, decisions 3-5 in the library: a run recorded against the testkit server (the official
// client through @agent/providers) replays to a match with no API key; a changed prompt is a
// request divergence; a directory replays as a suite.
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentRunner } from '@agent/runtime';
import { type ModelServer, sessionNonce, startModelServer } from '@agent/testkit';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { replay, replaySuite } from '../src/index.js';

let root: string;
let model: ModelServer;
let recordFile: string;
const env = { MODEL_URL: '', REPLAY_TEST_KEY: undefined as string | undefined };
const resolve = () => ({
  cwd: root,
  env: { ...env },
  userConfigDir: join(root, 'no-user'),
  systemConfigDir: join(root, 'no-system'),
  aiAgentHomeDir: join(root, 'no-home'),
  aiAgentSystemDir: join(root, 'no-ai-agent'),
});

const final = (messages: Parameters<typeof sessionNonce>[0], body: string) => {
  const tag = `ai-agent-${sessionNonce(messages)}-FINAL`;
  return `<${tag} tool="agent__final_report" status="success" format="markdown">${body}</${tag}>`;
};

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'evals-replay-')));
  model = await startModelServer({
    handler: (request) => {
      const user = request.messages
        .filter((m) => m.role === 'user')
        .map((m) => m.content)
        .join('\n');
      if (user.includes('Say hi')) return { text: final(request.messages, 'hi') };
      if (!request.messages.some((m) => m.role === 'tool'))
        return { toolCalls: [{ name: 'agent__helper', arguments: { prompt: 'Say hi' } }] };
      return { text: final(request.messages, 'The helper says hi.') };
    },
  });
  env.MODEL_URL = `${model.url}/v1`;
  const agent = (body: string) => `---\nmodels: [test/m]\nmaxTurns: 3\nagents: [helper.ai]\n---\n${body}\n`;
  writeFileSync(join(root, 'lead.ai'), agent('You lead.'));
  writeFileSync(join(root, 'changed.ai'), agent('You lead, kindly.'));
  writeFileSync(
    join(root, 'helper.ai'),
    '---\nmodels: [test/m]\ndescription: Says a word\n---\nYou say words.\n',
  );
  writeFileSync(
    join(root, 'agent.json'),
    JSON.stringify({
      providers: { test: { type: 'openai', baseURL: '${MODEL_URL}', apiKey: '${REPLAY_TEST_KEY}' } },
      // Only cached.ai caches; its store stays in the test's directory.
      cache: { backend: 'sqlite', path: 'cache.sqlite' },
    }),
  );
  env.REPLAY_TEST_KEY = 'sk-recording';
  const runner = await createAgentRunner('lead.ai', { ...resolve(), sessionsDir: join(root, 'records') });
  const result = await runner.run('Ask the helper.');
  await runner.close();
  expect(result.success, result.error).toBe(true);
  env.REPLAY_TEST_KEY = undefined;
  recordFile = join(root, 'records', readdirSync(join(root, 'records'))[0]!);
}, 60_000);

afterAll(async () => {
  await model.close();
  rmSync(root, { recursive: true, force: true });
});

test('a recorded run replays to a match under requests, with no key and without its model server', async () => {
  const calls = model.requests.length;
  const result = await replay(recordFile, { compare: 'requests', resolve: resolve() });
  expect(result.divergences).toEqual([]);
  expect(result.match).toBe(true);
  expect(result.result.finalReport?.content).toBe('The helper says hi.');
  expect(model.requests.length).toBe(calls);
});

test('a changed prompt is a request divergence with a diff; the report still matches', async () => {
  const agent = join(root, 'changed.ai');
  const strict = await replay(recordFile, { agent, compare: 'requests', resolve: resolve() });
  expect(strict.match).toBe(false);
  expect(strict.divergences).toHaveLength(1);
  expect(strict.divergences[0]).toMatchObject({ kind: 'request', session: 'lead#0', call: 0 });
  const diff = (strict.divergences[0] as { diff: string }).diff;
  expect(diff).toContain('-  You lead.');
  expect(diff).toContain('+  You lead, kindly.');
  const lenient = await replay(recordFile, { agent, compare: 'report', resolve: resolve() });
  expect(lenient.match).toBe(true);
});

test('a directory replays as a suite; a file that is not a record is an error entry', async () => {
  const dir = join(root, 'suite');
  mkdirSync(dir);
  writeFileSync(join(dir, 'a.json.gz'), 'not gzip');
  writeFileSync(join(dir, 'b.json.gz'), readFileSync(recordFile));
  const suite = await replaySuite(dir, { resolve: resolve(), compare: 'calls' });
  expect(suite).toMatchObject({ matched: 1, diverged: 0, errors: 1, compare: 'calls' });
  expect(suite.entries.map((entry) => entry.file)).toEqual([join(dir, 'a.json.gz'), join(dir, 'b.json.gz')]);
  expect(suite.entries[0]?.error).toMatch(/not a session record/);
});

test('an agent with a response cache still replays its model calls (the cache is off in a replay)', async () => {
  writeFileSync(
    join(root, 'cached.ai'),
    '---\nmodels: [test/m]\nmaxTurns: 3\nagents: [helper.ai]\ncache: 1h\n---\nYou lead.\n',
  );
  env.REPLAY_TEST_KEY = 'sk-recording';
  const records = join(root, 'cached-records');
  const runner = await createAgentRunner('cached.ai', { ...resolve(), sessionsDir: records });
  const recorded = await runner.run('Ask the helper.');
  await runner.close();
  expect(recorded.success, recorded.error).toBe(true);
  const file = join(records, readdirSync(records)[0]!);
  // The recording stored the answer in the response cache (the key still set, as on the machine
  // that recorded it); a replay that read it would make no model call and compare nothing.
  const result = await replay(file, { compare: 'requests', resolve: resolve() });
  env.REPLAY_TEST_KEY = undefined;
  expect(result.divergences).toEqual([]);
  expect(result.result.finalReport?.content).toBe('The helper says hi.');
  expect(result.record.tree.tape?.calls.length).toBe(2);
});
