// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ai-agent's files write literal ${VAR} text.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeSlack, type RecordedRequest, startFakeSlack } from '@agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServerArgs } from '../src/cli-options.js';
import {
  type AgentDir,
  agentDir,
  finalReport,
  lastUserText,
  type RunningServer,
  startServer,
} from './helpers.js';

// ai-agent's `slack` section of `.ai-agent.json` (the shape of its Configuration pages, written
// afresh here) as the Slack headend's settings of agent-server: tokens from `.ai-agent.env`,
// routing rules, deny rules and the default route, `dms: false`.

/** Each agent answers with its own name, so the test sees which one the routing picked. */
function answer(request: RecordedRequest) {
  const who = request.messages.some((m) => m.content.includes('You are other.')) ? 'other' : 'echo';
  const text = `${who}: ${lastUserText(request.messages)}`;
  const blocks = [{ type: 'section', text: { type: 'mrkdwn', text } }];
  return { text: finalReport(JSON.stringify([{ blocks }]), 'slack-block-kit') };
}

const SECTION = {
  enabled: true,
  botToken: '${SLACK_BOT}',
  appToken: '${SLACK_APP}',
  historyLimit: 5,
  dms: false,
  openerTone: 'cheerful',
  routing: {
    deny: [{ channels: ['secret-*'] }],
    rules: [
      { channels: ['eng-*'], agent: './other.ai', engage: ['channel-posts', 'mentions', 'threads'] },
      { enabled: false, channels: ['*'], agent: './missing.ai' },
    ],
    default: { agent: './echo.ai', engage: ['mentions'] },
  },
};

describe('agent-server with the slack section of an .ai-agent.json', () => {
  let agents: AgentDir;
  let fake: FakeSlack;
  let server: RunningServer;

  beforeAll(async () => {
    agents = await agentDir(answer, ['echo', 'other']);
    fake = await startFakeSlack();
    fake.channels.set('C1', 'eng-core');
    fake.channels.set('C2', 'random');
    fake.channels.set('C3', 'secret-plans');
    writeFileSync(
      join(agents.dir, '.ai-agent.json'),
      JSON.stringify({ slack: { ...SECTION, apiUrl: fake.apiUrl } }),
    );
    writeFileSync(
      join(agents.dir, '.ai-agent.env'),
      'SLACK_BOT=xoxb-legacy-bot\nSLACK_APP=xapp-legacy-app\n',
    );
    // Only echo.ai is named on the command line: other.ai is served because a rule routes to it.
    server = await startServer(['--agent', './echo.ai', '--api', '0', '--token', 't'], agents.dir, 1);
    await fake.connected();
  });

  afterAll(async () => {
    server?.child.kill('SIGTERM');
    if (server !== undefined) expect(await server.exited).toBe(0);
    await fake?.close();
    await agents?.close();
  });

  it('a rule sends a channel post in #eng-core to other.ai; a mention elsewhere goes to the default (echo.ai)', async () => {
    await fake.event({
      type: 'message',
      channel: 'C1',
      channel_type: 'channel',
      user: 'U1',
      text: 'build broke',
      ts: '2.1',
    });
    const [first] = await fake.waitForCalls('chat.update', 1);
    expect(JSON.stringify(first?.args.blocks)).toContain('other: build broke');
    await fake.event({ type: 'app_mention', channel: 'C2', user: 'U1', text: '<@UBOT> hello', ts: '2.2' });
    const updates = await fake.waitForCalls('chat.update', 2);
    expect(JSON.stringify(updates[1]?.args.blocks)).toContain('echo: hello');
    expect(updates[0]?.authorization).toBe('Bearer xoxb-legacy-bot');
  });

  it('deny rules and dms: false refuse; what is ignored is logged; no token is logged', async () => {
    await fake.event({ type: 'app_mention', channel: 'C3', user: 'U1', text: '<@UBOT> leak it', ts: '2.3' });
    await fake.event({
      type: 'message',
      channel: 'D1',
      channel_type: 'im',
      user: 'U1',
      text: 'psst',
      ts: '2.4',
    });
    await waitUntil(() => (server.stderr().match(/denied by a rule/g) ?? []).length >= 2);
    expect(server.stderr()).toContain('mentions in secret-plans denied by a rule');
    expect(server.stderr()).toContain('dms in D1 denied by a rule');
    expect(server.stderr()).toContain('`slack.openerTone` is ignored');
    expect(server.stderr()).toContain('`slack.routing.rules[0].engage: threads` is ignored');
    expect(server.stderr()).not.toMatch(/xoxb-legacy|xapp-legacy/);
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 20_000) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the slack section: what is refused, and when it is read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'server-ai-agent-slack-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const parse = (slack: object, args: string[] = [], env: Record<string, string> = {}) => {
    writeFileSync(join(dir, '.ai-agent.json'), JSON.stringify({ slack }));
    return parseServerArgs(['--agent', join(dir, 'a.ai'), '--api', '0', '--token', 't', ...args], env);
  };

  it('promptTemplates is an error naming the field; an unknown key names the allowed ones', () => {
    const rule = { channels: ['x'], agent: './a.ai', promptTemplates: { mention: 'Be brief.' } };
    expect(() => parse({ enabled: true, routing: { rules: [rule] } })).toThrow(
      /slack\.routing\.rules\[0\]\.promptTemplates is not supported: this Slack headend gives the agent the message/,
    );
    expect(() => parse({ enabled: true, botTokn: 'x' })).toThrow(
      /unknown key "slack\.botTokn" \(allowed: enabled, botToken/,
    );
  });

  it('not enabled and no --slack: not read (an unset variable in it does not matter); --slack reads it', () => {
    const section = { botToken: '${NOT_SET}', appToken: 'xapp-1' };
    expect(parse(section).slack).toBeUndefined();
    expect(() => parse(section, ['--slack'])).toThrow(
      /`slack\.botToken` uses \$\{NOT_SET\}, which is not set/,
    );
    expect(parse(section, ['--slack-port', '0'], { NOT_SET: 'xoxb-1' }).slack).toEqual({
      botToken: 'xoxb-1',
      appToken: 'xapp-1',
      port: 0,
    });
  });

  it("server.json's slack wins over the .ai-agent.json section", () => {
    const serverJson = join(dir, 'server.json');
    writeFileSync(serverJson, JSON.stringify({ slack: { botToken: 'xoxb-server' } }));
    expect(parse({ enabled: true, botToken: 'xoxb-legacy' }, ['--config', serverJson]).slack).toEqual({
      botToken: 'xoxb-server',
    });
  });
});
