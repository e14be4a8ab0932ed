import { createHmac } from 'node:crypto';
import { AgentError } from '@agent/protocol';
import {
  FAKE_SLACK_BOT,
  type FakeSlack,
  type RecordedRequest,
  type ScriptedAnswer,
  startFakeSlack,
} from '@agent/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSlackHeadend, type SlackHeadend, type SlackHeadendOptions, serve } from '../src/index.js';
import { finalReport, lastUserText, startAgents, type TestAgents } from './helpers/agents.js';

const BOT_USER = FAKE_SLACK_BOT.userId;
const BOT_ID = FAKE_SLACK_BOT.botId;

const BOT_TOKEN = 'xoxb-test-bot-token-1234';
const APP_TOKEN = 'xapp-test-app-token-5678';
const SIGNING_SECRET = 'signing-secret-abcdef';

const agentOf = (request: RecordedRequest) =>
  request.messages.find((m) => m.role === 'system')?.content.includes('You are beta') ? 'beta' : 'alpha';

function slackReport(messages: unknown): string {
  return finalReport(JSON.stringify(messages), 'slack-block-kit');
}

function answer(request: RecordedRequest): ScriptedAnswer {
  const prompt = lastUserText(request.messages);
  if (prompt.includes('fail')) return { error: { kind: 'auth', message: 'the model refused the key' } };
  if (prompt.includes('long report')) {
    const blocks = Array.from({ length: 60 }, (_, index) => ({
      type: 'section',
      text: { type: 'mrkdwn', text: `${index}: ${'z'.repeat(5000)}` },
    }));
    return { text: slackReport([{ blocks }]) };
  }
  if (prompt.includes('work') && !request.messages.some((m) => m.role === 'tool')) {
    return {
      toolCalls: [
        {
          id: 's',
          name: 'agent__task_status',
          arguments: { status: 'in-progress', now: 'digging through logs' },
        },
      ],
    };
  }
  const said = `${agentOf(request)} answers: ${prompt}`;
  return { text: slackReport([{ blocks: [{ type: 'section', text: { type: 'mrkdwn', text: said } }] }]) };
}

let agents: TestAgents;
let fake: FakeSlack;
let headend: SlackHeadend | undefined;
const logs: string[] = [];

beforeAll(async () => {
  agents = await startAgents(answer, ['alpha', 'beta']);
});

afterAll(async () => {
  await agents.close();
  // Nothing the headend logged, in any test, carries a secret.
  expect(logs.join('\n')).not.toMatch(/xoxb-test|xapp-test|signing-secret/);
});

afterEach(async () => {
  await headend?.dispose();
  headend = undefined;
  await fake.close();
});

async function startSlack(options: Partial<SlackHeadendOptions> = {}): Promise<SlackHeadend> {
  fake = await startFakeSlack();
  fake.channels.set('C1', 'eng-backend');
  fake.channels.set('C2', 'secret-plans');
  fake.channels.set('C3', 'random');
  headend = createSlackHeadend({
    catalog: agents.catalog,
    botToken: BOT_TOKEN,
    appToken: APP_TOKEN,
    signingSecret: SIGNING_SECRET,
    env: {},
    apiUrl: fake.apiUrl,
    routes: [
      { channels: ['secret-*'], deny: true },
      { channels: ['eng-*'], engage: ['mentions', 'channel-posts'], agent: 'beta' },
    ],
    defaultAgent: 'alpha',
    updateIntervalMs: 60_000,
    pingTimeoutMs: 1000,
    log: (level, message) => logs.push(`${level} ${message}`),
    ...options,
  });
  await headend.start();
  return headend;
}

/** A direct message from U1 to the bot. */
function directMessage(text: string, ts: string): Promise<unknown> {
  return fake.event({ type: 'message', channel: 'D1', channel_type: 'im', user: 'U1', text, ts });
}

/** The text of the blocks the opener was finally updated with. */
function finalBlocksText(update: { args: Record<string, unknown> }): string {
  const blocks = update.args.blocks as { text?: { text: string } }[];
  return blocks.map((block) => block.text?.text ?? '').join('\n');
}

describe('Slack headend against a fake Slack over Socket Mode', () => {
  it('routes a mention in a channel matching a glob to its agent and answers in the thread', async () => {
    await startSlack();
    expect(fake.callsOf('apps.connections.open')[0]?.authorization).toBe(`Bearer ${APP_TOKEN}`);
    await fake.event({
      type: 'app_mention',
      channel: 'C1',
      user: 'U1',
      text: `<@${BOT_USER}> deploy status?`,
      ts: '100.1',
    });
    const [update] = await fake.waitForCalls('chat.update', 1);
    const [opener] = fake.callsOf('chat.postMessage');
    expect(opener?.args).toMatchObject({ channel: 'C1', thread_ts: '100.1' });
    expect(opener?.authorization).toBe(`Bearer ${BOT_TOKEN}`);
    expect(update?.args).toMatchObject({ channel: 'C1', ts: expect.any(String) });
    expect(finalBlocksText(update!)).toBe('beta answers: deploy status?');
    expect(update?.args.text).toBe('beta answers: deploy status?');
  });

  it('answers a direct message with the default agent', async () => {
    await startSlack();
    await directMessage('hello there', '200.1');
    const [update] = await fake.waitForCalls('chat.update', 1);
    expect(finalBlocksText(update!)).toBe('alpha answers: hello there');
    // A DM needs no channel name for routing.
    expect(fake.callsOf('conversations.info')).toHaveLength(0);
  });

  it('says nothing in a denied channel and runs no agent', async () => {
    await startSlack();
    const before = agents.model.requests.length;
    await fake.event({
      type: 'app_mention',
      channel: 'C2',
      user: 'U1',
      text: `<@${BOT_USER}> leak it`,
      ts: '300.1',
    });
    while (!logs.some((line) => line.includes('secret-plans denied by a rule')))
      await new Promise((r) => setTimeout(r, 10));
    expect(fake.callsOf('chat.postMessage')).toHaveLength(0);
    expect(agents.model.requests.length).toBe(before);
  });

  it('gives the agent the thread history, bounded by message count and characters', async () => {
    await startSlack({ historyMessages: 3, historyChars: 1000 });
    fake.threads.set('400.1', [
      { ts: '400.1', user: 'U1', text: `<@${BOT_USER}> first question` },
      { ts: '400.2', user: 'U2', text: 'y'.repeat(2000) },
      { ts: '400.3', user: BOT_USER, bot_id: BOT_ID, text: 'first answer' },
      { ts: '400.4', user: 'U2', text: 'second question' },
      { ts: '400.5', user: 'U1', text: `<@${BOT_USER}> follow-up` },
    ]);
    const before = agents.model.requests.length;
    await fake.event({
      type: 'app_mention',
      channel: 'C3',
      user: 'U1',
      text: `<@${BOT_USER}> follow-up`,
      ts: '400.5',
      thread_ts: '400.1',
    });
    const [update] = await fake.waitForCalls('chat.update', 1);
    expect(finalBlocksText(update!)).toBe('alpha answers: follow-up');
    const request = agents.model.requests[before]!;
    const seen = request.messages.filter((m) => m.role !== 'system');
    expect(seen.find((m) => m.role === 'assistant')?.content).toBe('first answer');
    const texts = seen.map((m) => m.content).join('\n');
    expect(texts).toContain('<@U2>: second question');
    expect(texts).not.toContain('first question');
    expect(texts).not.toContain('yyyy');
  });

  it('does not update the opener before the interval has passed', async () => {
    await startSlack({ updateIntervalMs: 60_000 });
    await directMessage('work on it', '500.1');
    await fake.waitForCalls('chat.update', 1);
    await headend?.dispose();
    // The task-status progress came within the interval: the only update is the answer.
    const updates = fake.callsOf('chat.update');
    expect(updates).toHaveLength(1);
    expect(finalBlocksText(updates[0]!)).toBe('alpha answers: work on it');
  });

  it('updates the opener in place from progress when the interval allows', async () => {
    await startSlack({ updateIntervalMs: 0 });
    await directMessage('work on it', '600.1');
    const opener = await fake.waitForCalls('chat.postMessage', 1);
    while (!fake.callsOf('chat.update').some((call) => call.args.blocks !== undefined)) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const updates = fake.callsOf('chat.update');
    expect(fake.callsOf('chat.postMessage')).toHaveLength(1);
    expect(updates.every((call) => call.args.ts === '1001.000100' && opener[0]?.args.channel === 'D1')).toBe(
      true,
    );
    expect(updates.some((call) => String(call.args.text).includes('digging through logs'))).toBe(true);
    expect(finalBlocksText(updates.at(-1)!)).toBe('alpha answers: work on it');
  });

  it('clamps a long report and posts it as blocks, the overflow in the thread', async () => {
    await startSlack();
    await directMessage('long report please', '700.1');
    const [update] = await fake.waitForCalls('chat.update', 1);
    const posts = await fake.waitForCalls('chat.postMessage', 2);
    const first = update!.args.blocks as { type: string; text: { text: string } }[];
    const second = posts[1]!.args.blocks as { type: string; text: { text: string } }[];
    expect(first).toHaveLength(50);
    expect(second).toHaveLength(10);
    expect(posts[1]?.args.thread_ts).toBe('700.1');
    for (const block of [...first, ...second]) {
      expect(block.type).toBe('section');
      expect(block.text.text.length).toBeLessThanOrEqual(3000);
      expect(block.text.text.endsWith('…')).toBe(true);
    }
    expect(String(update!.args.text).length).toBeGreaterThan(0);
    expect(String(update!.args.text).length).toBeLessThanOrEqual(3000);
  });

  it('posts a failed run as a short error, never a stack', async () => {
    await startSlack();
    await directMessage('please fail', '800.1');
    const [update] = await fake.waitForCalls('chat.update', 1);
    const text = String(update!.args.text);
    expect(text).toMatch(/^:warning: The agent could not answer \(EXIT-[A-Z-]+\): /);
    expect(text).not.toMatch(/\n\s+at /);
    expect(text.length).toBeLessThan(400);
    expect(update!.args.blocks).toBeUndefined();
  });

  it('pingTimeoutMs reaches Socket Mode: a dropped socket is back within it, not the SDK default 5 s', async () => {
    await startSlack({ pingTimeoutMs: 100 });
    const dropped = Date.now();
    fake.dropSocket();
    await fake.connected(1);
    // The SDK waits pingTimeoutMs times the failures in a row (one here) before reconnecting.
    expect(Date.now() - dropped).toBeLessThan(2500);
  });

  it('refuses the old reconnectDelayMs, naming pingTimeoutMs', () => {
    expect(() =>
      createSlackHeadend({
        catalog: agents.catalog,
        botToken: BOT_TOKEN,
        appToken: APP_TOKEN,
        env: {},
        reconnectDelayMs: 1000,
      } as SlackHeadendOptions),
    ).toThrow(/reconnectDelayMs is now pingTimeoutMs/);
  });

  it('reconnects a dropped socket and keeps answering', async () => {
    await startSlack();
    expect(fake.connections).toBe(1);
    fake.dropSocket();
    await fake.connected(1);
    expect(fake.connections).toBe(2);
    expect(fake.callsOf('apps.connections.open')).toHaveLength(2);
    await directMessage('still there?', '900.1');
    const [update] = await fake.waitForCalls('chat.update', 1);
    expect(finalBlocksText(update!)).toBe('alpha answers: still there?');
  });
});

describe('Slack slash commands', () => {
  function sign(body: string, timestamp: number, secret = SIGNING_SECRET): Record<string, string> {
    const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
    return {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': signature,
    };
  }
  const body = new URLSearchParams({
    command: '/ask',
    text: 'what is new',
    channel_id: 'C3',
    channel_name: 'random',
    user_id: 'U1',
  }).toString();

  it('refuses a bad signature and a stale timestamp, and runs a signed command', async () => {
    const served = await serve(await startSlack());
    try {
      const now = Math.floor(Date.now() / 1000);
      const post = (headers: Record<string, string>) =>
        fetch(`${served.url}/slack/commands`, { method: 'POST', headers, body });
      const forged = await post(sign(body, now, 'not-the-secret'));
      expect(forged.status).toBe(401);
      expect(await forged.json()).toEqual({ error: 'request refused: the signature does not match' });
      const stale = await post(sign(body, now - 3600));
      expect(stale.status).toBe(401);
      expect(((await stale.json()) as { error: string }).error).toContain('more than 300 s away');
      expect(fake.callsOf('chat.postMessage')).toHaveLength(0);

      const good = await post(sign(body, now));
      expect(good.status).toBe(200);
      expect(await good.json()).toEqual({ response_type: 'ephemeral', text: 'Working on it…' });
      const [update] = await fake.waitForCalls('chat.update', 1);
      expect(fake.callsOf('chat.postMessage')[0]?.args).toMatchObject({ channel: 'C3' });
      expect(finalBlocksText(update!)).toBe('alpha answers: what is new');
    } finally {
      await served.close();
    }
  });

  it('runs a signed command once: the same request replayed within the window is refused', async () => {
    const served = await serve(await startSlack());
    try {
      const headers = sign(body, Math.floor(Date.now() / 1000));
      const answers = [];
      for (let n = 0; n < 5; n += 1) {
        answers.push(await fetch(`${served.url}/slack/commands`, { method: 'POST', headers, body }));
      }
      expect(answers.map((answer) => answer.status)).toEqual([200, 401, 401, 401, 401]);
      expect(await answers[1]!.json()).toEqual({
        error: 'request refused: this signed request was already received (a replay)',
      });
      await fake.waitForCalls('chat.update', 1);
      await new Promise((r) => setTimeout(r, 300));
      expect(fake.callsOf('chat.postMessage')).toHaveLength(1);
    } finally {
      await served.close();
    }
  });

  it('takes a slash command over Socket Mode and refuses one in a denied channel', async () => {
    await startSlack();
    const ask = (text: string, channel_id: string, channel_name: string) =>
      fake.deliver('slash_commands', { command: '/ask', text, channel_id, channel_name });
    const denied = await ask('x', 'C2', 'secret-plans');
    expect(denied).toEqual({ response_type: 'ephemeral', text: '/ask is not available here.' });
    const reply = await ask('via socket', 'C3', 'random');
    expect(reply).toEqual({ response_type: 'ephemeral', text: 'Working on it…' });
    const [update] = await fake.waitForCalls('chat.update', 1);
    expect(finalBlocksText(update!)).toBe('alpha answers: via socket');
  });
});

describe('Slack headend against a Slack that answers oddly', () => {
  it('refuses to start when auth.test names no bot user: an AgentError with code slack_unexpected_answer', async () => {
    fake = await startFakeSlack();
    fake.answerWith('auth.test', { ok: true, team_id: 'T1' });
    headend = createSlackHeadend({
      catalog: agents.catalog,
      botToken: BOT_TOKEN,
      appToken: APP_TOKEN,
      env: {},
      apiUrl: fake.apiUrl,
      log: (level, message) => logs.push(`${level} ${message}`),
    });
    const failed = await headend.start().catch((error: unknown) => error);
    expect(AgentError.is(failed, 'slack_unexpected_answer')).toBe(true);
    expect((failed as Error).message).toBe('auth.test answered without a user_id');
    expect(fake.callsOf('apps.connections.open')).toEqual([]);
  });
});

describe('Slack headend configuration', () => {
  it('names a missing token, reads tokens from the environment, and refuses an unknown agent', () => {
    expect(() => createSlackHeadend({ catalog: agents.catalog, env: {} })).toThrow(/SLACK_BOT_TOKEN/);
    expect(() =>
      createSlackHeadend({ catalog: agents.catalog, env: { SLACK_BOT_TOKEN: BOT_TOKEN } }),
    ).toThrow(/SLACK_APP_TOKEN/);
    expect(() =>
      createSlackHeadend({
        catalog: agents.catalog,
        env: { SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_APP_TOKEN: APP_TOKEN },
        routes: [{ channels: ['x'], agent: 'gamma' }],
      }),
    ).toThrow('slack.routes[0].agent names "gamma", which is not a served agent (known: alpha, beta)');
  });
});
