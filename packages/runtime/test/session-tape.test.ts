// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${DATETIME}` is prompt syntax here
// Issue 40, the runtime's part: a recorded run keeps every session's tape (requests, answers,
// failed attempts, tool results) and what it was asked; `sessionHooks` reach every session;
// `promptFacts` pin the clock and machine prompt variables; `sessionsDir` says where records go.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { RecordNode, SessionKey, SessionTape, ToolCallRequest } from '@agent/protocol';
import { scriptedModel } from '@agent/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { createAgentRunner, readSessionRecord } from '../src/index.js';
import { finalAnswer } from './helpers/reports.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A loopback API that counts its requests: every GET answers `{"now":"noon"}`. */
async function timeApi(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"now":"noon"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/time`, seen };
}

/** The session nodes of a record's tree that carry a tape, in tree order. */
function tapesOf(node: RecordNode): SessionTape[] {
  return [...(node.tape === undefined ? [] : [node.tape]), ...node.children.flatMap(tapesOf)];
}

/** A tape's calls as the requests they were: messages and tools looked up by index. */
function rebuiltRequests(tape: SessionTape) {
  return tape.calls.map((call) => ({
    messages: call.messages.map((i) => tape.messages[i]),
    tools: call.tools.map((i) => tape.tools[i]),
    options: call.options,
  }));
}

/** What the user messages of a request say, together. */
const userText = (messages: readonly { role: string; content: string }[]) =>
  messages.flatMap((message) => (message.role === 'user' ? [message.content] : [])).join('\n');

/**
 * main.ai calls its helper twice, one turn each; its first model call fails (rate limit) and is
 * retried. The script answers each session by what it was sent.
 */
function helperTwiceModel() {
  let mainTurn = 0;
  return scriptedModel(
    Array.from({ length: 6 }, () => (request) => {
      const prompt = userText(request.messages);
      if (prompt.includes('Say one') || prompt.includes('Say two'))
        return { text: finalAnswer(request.messages, prompt.includes('Say one') ? 'first' : 'second') };
      mainTurn++;
      if (mainTurn === 1) return { error: { kind: 'rate_limit', retryAfterMs: 1 } };
      if (mainTurn <= 3) {
        const word = mainTurn === 2 ? 'one' : 'two';
        return {
          toolCalls: [{ id: `call_${word}`, name: 'agent__helper', arguments: { prompt: `Say ${word}` } }],
        };
      }
      return { text: finalAnswer(request.messages, 'done') };
    }),
  );
}

const helperTree = (mainBody = 'You are the main agent. Now: ${DATETIME} on ${HOSTNAME}.') => ({
  'agent.json': localConfig(),
  'main.ai': agentFile('models: [local/m]\nagents: [helper.ai]\nmaxRetries: 2', mainBody),
  'helper.ai': agentFile('models: [local/m]\ndescription: Says a word'),
});

describe('a recorded run', () => {
  test('keeps each session tape: every request, answers with call ids, failed attempts, sub-agent keys', async () => {
    const root = tempTree(helperTree());
    const model = helperTwiceModel();
    const facts = { DATETIME: '2001-02-03T04:05:06+00:00', HOSTNAME: 'recorded-host' };
    const runner = await createAgentRunner('main.ai', {
      ...isolated(root),
      clientFactory: () => model,
      sessionsDir: 'out/records',
      promptFacts: facts,
    });
    const result = await runner.run('Go.', { sessionId: 'taped' });
    await runner.close();
    expect(result.success, result.error).toBe(true);

    // The runner's `sessionsDir` (the config has none), relative to its cwd.
    const path = join(root, 'out/records/taped.json.gz');
    expect(existsSync(path)).toBe(true);
    const record = await readSessionRecord(path);
    expect(record.version).toBe(2);
    expect(record.input).toMatchObject({
      agentFile: join(root, 'main.ai'),
      prompt: 'Go.',
      promptFacts: { ...facts, CWD: root, CD: root },
    });
    expect(record.input?.promptFacts.ARCH).toBe(process.arch);
    expect(record.input?.format).toBeUndefined();

    const tapes = tapesOf(record.tree);
    const keys: SessionKey[] = tapes.map(({ agentPath, ordinal }) => ({ agentPath, ordinal }));
    expect(keys).toEqual([
      { agentPath: 'main', ordinal: 0 },
      { agentPath: 'main.helper', ordinal: 0 },
      { agentPath: 'main.helper', ordinal: 1 },
    ]);
    const [main, first, second] = tapes as [SessionTape, SessionTape, SessionTape];

    // Every request the model got is on a tape, exactly: messages, tools and options.
    const sent = model.requests.map(({ messages, tools, options }) => ({ messages, tools, options }));
    const taped = tapes.flatMap(rebuiltRequests);
    const canonical = (list: unknown[]) => list.map((item) => JSON.stringify(item)).sort();
    expect(taped).toHaveLength(6);
    expect(canonical(taped)).toEqual(canonical(sent));

    // The main session: the failed attempt, then its answers with the model's call ids.
    expect(main.calls.map((call) => call.error?.kind ?? 'answer')).toEqual([
      'rate_limit',
      'answer',
      'answer',
      'answer',
    ]);
    expect(main.calls[0]!.answer).toBeUndefined();
    expect(main.calls[1]!).toMatchObject({ provider: 'local', model: 'm' });
    expect(main.calls[1]!.answer?.toolCalls).toEqual([
      { id: 'call_one', name: 'agent__helper', arguments: '{"prompt":"Say one"}' },
    ]);
    expect(main.calls[1]!.answer?.stopReason).toBe('tool_calls');
    expect(main.calls[3]!.answer?.text).toContain('done');
    expect(main.calls[3]!.answer?.usage?.totalTokens).toBeGreaterThan(0);
    // The system prompt had the pinned facts.
    expect(main.messages[0]!.content).toContain('Now: 2001-02-03T04:05:06+00:00 on recorded-host.');

    // Messages are stored once: each request's list extends the one before (indexes, not
    // copies), but for its last message (the turn's own note to the model).
    for (let i = 2; i < main.calls.length; i++) {
      const before = main.calls[i - 1]!.messages.slice(0, -1);
      expect(main.calls[i]!.messages.slice(0, before.length)).toEqual(before);
    }
    expect(main.messages.length).toBeLessThanOrEqual(main.calls.at(-1)!.messages.length + main.calls.length);

    // The sub-agent calls: the provider's result, without the child's op tree.
    expect(
      main.toolCalls.map(({ callId, name, kind, arguments: args }) => ({ callId, name, kind, args })),
    ).toEqual([
      { callId: 'call_one', name: 'agent__helper', kind: 'subagent', args: { prompt: 'Say one' } },
      { callId: 'call_two', name: 'agent__helper', kind: 'subagent', args: { prompt: 'Say two' } },
    ]);
    expect(main.toolCalls[0]!.result).toMatchObject({ ok: true });
    expect(JSON.stringify(main.toolCalls[0]!.result)).toContain('first');
    expect(main.toolCalls[0]!.result).not.toHaveProperty('childSession');

    // Each helper session has its own tape with its own prompt and answer.
    expect(userText(first.messages)).toContain('Say one');
    expect(first.calls[0]!.answer?.text).toContain('first');
    expect(userText(second.messages)).toContain('Say two');
    expect(second.calls[0]!.answer?.text).toContain('second');
  });

  test('the format and schema the caller gave are in the input; the facts are kept even when the prompt uses none', async () => {
    const root = tempTree({
      'agent.json': localConfig({ persistence: { sessionsDir: 'records' } }),
      'a.ai': agentFile('models: [local/m]'),
    });
    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    const model = scriptedModel([(r) => ({ text: finalAnswer(r.messages, '{"n":1}', 'json') })]);
    const runner = await createAgentRunner('a.ai', { ...isolated(root), clientFactory: () => model });
    const result = await runner.run('Count.', { sessionId: 'json-run', format: 'json', schema });
    await runner.close();
    expect(result.success, result.error).toBe(true);
    const record = await readSessionRecord(join(root, 'records/json-run.json.gz'));
    expect(record.input).toMatchObject({ prompt: 'Count.', format: 'json', schema });
    expect(record.input?.promptFacts.DATETIME).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    expect(Object.keys(record.input?.promptFacts ?? {})).toHaveLength(13);
  });
});

describe('sessionHooks', () => {
  test('modelClient sees every session with its key; toolCall answers an HTTP tool, never a sub-agent', async () => {
    const api = await timeApi();
    const root = tempTree({
      'agent.json': localConfig({ restTools: { time: { description: 'The time', url: api.url } } }),
      'main.ai': agentFile('models: [local/m]\nagents: [helper.ai]\ntools: [time]'),
      'helper.ai': agentFile('models: [local/m]\ndescription: Says a word'),
    });
    let mainTurn = 0;
    const model = scriptedModel(
      Array.from({ length: 4 }, () => (request) => {
        if (userText(request.messages).includes('Say one'))
          return { text: finalAnswer(request.messages, 'first') };
        mainTurn++;
        if (mainTurn === 1)
          return {
            toolCalls: [
              { id: 'call_t', name: 'rest__time', arguments: {} },
              { id: 'call_h', name: 'agent__helper', arguments: { prompt: 'Say one' } },
            ],
          };
        return { text: finalAnswer(request.messages, 'done') };
      }),
    );
    const clients: { session: SessionKey; sessionId: string; provider: string; model: string }[] = [];
    const calls: { call: ToolCallRequest; provider: string; kind?: string; session: SessionKey }[] = [];
    const runner = await createAgentRunner('main.ai', {
      ...isolated(root),
      clientFactory: () => model,
      sessionsDir: 'records',
      sessionHooks: {
        modelClient(client, context) {
          clients.push(context);
          return client;
        },
        toolCall(call, context) {
          calls.push({ call, ...context });
          return { ok: true, text: 'It is hooked o clock.' };
        },
      },
    });
    const result = await runner.run('What time is it?', { sessionId: 'hooked' });
    await runner.close();
    expect(result.success, result.error).toBe(true);

    expect(clients.map(({ session, provider, model: m }) => ({ session, provider, model: m }))).toEqual([
      { session: { agentPath: 'main', ordinal: 0 }, provider: 'local', model: 'm' },
      { session: { agentPath: 'main.helper', ordinal: 0 }, provider: 'local', model: 'm' },
    ]);
    expect(clients[0]!.sessionId).toBe('hooked');
    expect(clients[1]!.sessionId).not.toBe('hooked');

    // Only the HTTP tool was asked; the API never was; the sub-agent ran its session.
    expect(
      calls.map(({ call, provider, kind, session }) => ({ name: call.name, provider, kind, session })),
    ).toEqual([
      { name: 'rest__time', provider: 'time', kind: 'rest', session: { agentPath: 'main', ordinal: 0 } },
    ]);
    expect(api.seen).toEqual([]);
    expect(model.requests).toHaveLength(3);
    const toolMessages = model.requests[2]!.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.content).join('\n')).toContain('It is hooked o clock.');
    expect(toolMessages.map((message) => message.content).join('\n')).toContain('first');

    // The recorder keeps what the hook answered.
    const record = await readSessionRecord(join(root, 'records/hooked.json.gz'));
    const time = record.tree.tape?.toolCalls.find((call) => call.name === 'rest__time');
    expect(time).toMatchObject({
      callId: 'call_t',
      kind: 'rest',
      result: { ok: true, text: 'It is hooked o clock.' },
    });
  });

  test('toolCall returning undefined lets the tool run', async () => {
    const api = await timeApi();
    const root = tempTree({
      'agent.json': localConfig({ restTools: { time: { description: 'The time', url: api.url } } }),
      'a.ai': agentFile('models: [local/m]\ntools: [time]'),
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 'call_t', name: 'rest__time', arguments: {} }] },
      (r) => ({ text: finalAnswer(r.messages, 'done') }),
    ]);
    let asked = 0;
    const runner = await createAgentRunner('a.ai', {
      ...isolated(root),
      clientFactory: () => model,
      sessionHooks: {
        toolCall() {
          asked++;
          return undefined;
        },
      },
    });
    const result = await runner.run('What time is it?');
    await runner.close();
    expect(result.success, result.error).toBe(true);
    expect(asked).toBe(1);
    expect(api.seen).toEqual(['GET /time']);
    expect(JSON.stringify(model.requests[1]!.messages)).toContain('noon');
  });
});

describe('promptFacts', () => {
  test('a name that is not a clock or machine variable is refused, saying which are allowed', async () => {
    const root = tempTree(helperTree());
    const options = { ...isolated(root), clientFactory: () => helperTwiceModel() };
    await expect(
      createAgentRunner('main.ai', { ...options, promptFacts: { FORMAT: 'x' } }),
    ).rejects.toMatchObject({
      kind: 'configuration',
      message: expect.stringMatching(
        /"FORMAT" is not a clock or machine prompt variable \(allowed: DATETIME, DATE,.*USER\)/,
      ),
    });
    const runner = await createAgentRunner('main.ai', options);
    const result = await runner.run('Go.', { promptFacts: { DATETIME: 'now', MAX_TURNS: '3' } });
    await runner.close();
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.error).toMatch(/"MAX_TURNS" is not a clock or machine prompt variable/);
  });

  test('per run, they pin ${DATETIME} and ${HOSTNAME} in the prompt', async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'a.ai': agentFile('models: [local/m]', 'Clock: ${DATETIME}. Host: ${HOSTNAME}. Day: ${DAY}.'),
    });
    const model = scriptedModel([(r) => ({ text: finalAnswer(r.messages, 'ok') })]);
    const runner = await createAgentRunner('a.ai', { ...isolated(root), clientFactory: () => model });
    const result = await runner.run('Go.', {
      promptFacts: { DATETIME: '1999-12-31T23:59:59+00:00', HOSTNAME: 'pinned', DAY: 'Friday' },
    });
    await runner.close();
    expect(result.success, result.error).toBe(true);
    expect(model.requests[0]!.messages[0]!.content).toContain(
      'Clock: 1999-12-31T23:59:59+00:00. Host: pinned. Day: Friday.',
    );
  });
});
