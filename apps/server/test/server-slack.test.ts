import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FakeSlack, type RecordedRequest, startFakeSlack } from '@agent/testkit';
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentDir,
  agentDir,
  finalReport,
  lastUserText,
  type RunningServer,
  startServer,
} from './helpers.js';

let agents: AgentDir;
let fake: FakeSlack;
let server: RunningServer;

/** Slack conversations ask for `slack-block-kit`; the UI stream takes the agent's markdown. */
function answer(request: RecordedRequest) {
  const prompt = lastUserText(request.messages);
  const slack = request.messages.some((m) => m.content.includes('slack-block-kit'));
  if (!slack) return { text: finalReport(`Echo: ${prompt}`) };
  const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: `Echo: ${prompt}` } }];
  return { text: finalReport(JSON.stringify([{ blocks }]), 'slack-block-kit') };
}

beforeAll(async () => {
  agents = await agentDir(answer);
  fake = await startFakeSlack();
  const config = join(agents.dir, 'server.json');
  writeFileSync(
    config,
    JSON.stringify({
      agents: ['./echo.ai'],
      api: 0,
      tokens: ['t'],
      slack: { apiUrl: fake.apiUrl, botToken: 'xoxb-e2e-bot', appToken: 'xapp-e2e-app', port: 0 },
    }),
  );
  server = await startServer(['--config', config], agents.dir, 2);
});

afterAll(async () => {
  server?.child.kill('SIGTERM');
  if (server !== undefined) expect(await server.exited).toBe(0);
  await fake?.close();
  await agents?.close();
});

describe('agent-server with slack and the UI stream route', () => {
  it('answers a Slack direct message over Socket Mode with the only agent', async () => {
    await fake.connected();
    await fake.event({
      type: 'message',
      channel: 'D1',
      channel_type: 'im',
      user: 'U1',
      text: 'hi',
      ts: '1.1',
    });
    const [update] = await fake.waitForCalls('chat.update', 1);
    expect(update?.args.blocks).toEqual([{ type: 'section', text: { type: 'mrkdwn', text: 'Echo: hi' } }]);
    expect(server.urls.slack).toMatch(/\/slack\/commands$/);
    expect(server.stderr()).toContain('agent-server: slack connected (Socket Mode)');
    expect(server.stderr()).not.toMatch(/xoxb-e2e|xapp-e2e/);
  });

  it('serves POST /api/chat on the REST headend for the AI SDK client', async () => {
    const base = server.urls.rest!.replace(/\/v1\/agents$/, '');
    const transport = new DefaultChatTransport<UIMessage>({
      api: `${base}/api/chat`,
      headers: { authorization: 'Bearer t' },
    });
    const stream = await transport.sendMessages({
      trigger: 'submit-message',
      chatId: 'c',
      messageId: undefined,
      messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text: 'from useChat' }] }],
      abortSignal: undefined,
    });
    let message: UIMessage | undefined;
    for await (const snapshot of readUIMessageStream({ stream })) message = snapshot;
    const text = message?.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
    expect(text).toBe('Echo: from useChat');
  });
});
