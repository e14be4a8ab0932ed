import { createModelClient } from '@agent/providers';
import { finalReport, type ModelServer, startModelServer } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { defineAgent, run } from '../../src/index.js';

// Issue 16, conversations: a conversation's earlier exchanges reach the model as user/assistant
// pairs after the system prompt; those that do not fit the context window go, oldest first,
// with a log line saying how many.
const servers: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function agentOn(contextWindow?: number) {
  const server = await startModelServer({ strict: true, steps: [finalReport('Third answer.')] });
  servers.push(server);
  const agent = defineAgent({
    model: createModelClient({
      type: 'openai',
      provider: 'openai',
      model: 'gpt-4.1-mini',
      apiKey: 'sk-test-secret-key',
      baseURL: `${server.url}/v1`,
    }),
    instructions: 'Answer briefly.',
    ...(contextWindow === undefined ? {} : { contextWindow }),
  });
  return { server, agent };
}

const exchanges = [
  {
    prompt: 'First question?',
    report: `First answer: ${'lorem ipsum dolor '.repeat(400)}`,
    sessionId: 's1',
    at: 1,
  },
  { prompt: 'Second question?', report: 'Second answer.', sessionId: 's2', at: 2 },
];

const roles = (messages: readonly { role: string; content?: unknown }[]) =>
  messages.map((m) => `${m.role}: ${String(m.content).slice(0, 20)}`);

test('earlier exchanges come after the system prompt as user/assistant pairs, oldest first', async () => {
  const { server, agent } = await agentOn();
  const result = await run(agent, { prompt: 'Third question?', exchanges });
  expect(result.success).toBe(true);
  const sent = server.requests[0]!.messages.filter((m) => m.role !== 'system');
  expect(roles(sent).slice(0, 5)).toEqual([
    'user: First question?',
    `assistant: ${exchanges[0]!.report.slice(0, 20)}`,
    'user: Second question?',
    'assistant: Second answer.',
    'user: Third question?',
  ]);
  expect(result.logs.some((e) => e.remoteIdentifier === 'agent:conversation')).toBe(false);
});

test('with a small context window the oldest exchange is dropped, and a log line says how many', async () => {
  // About 1200 tokens for the first exchange: it cannot fit in 1500 with the answer reserve.
  const { server, agent } = await agentOn(1500);
  const result = await run(agent, { prompt: 'Third question?', exchanges }, { onEvent: () => {} });
  expect(result.success, result.error).toBe(true);
  const sent = server.requests[0]!.messages;
  const texts = sent.map((m) => String(m.content));

  expect(texts.some((t) => t.includes('First question?') || t.includes('lorem ipsum'))).toBe(false);
  expect(roles(sent.filter((m) => m.role !== 'system')).slice(0, 3)).toEqual([
    'user: Second question?',
    'assistant: Second answer.',
    'user: Third question?',
  ]);
  const line = result.logs.find((e) => e.remoteIdentifier === 'agent:conversation');
  expect(line?.severity).toBe('WRN');
  expect(line?.message).toContain('dropped the 1 oldest of 2 earlier exchanges to fit the context window');
});

test('exchanges that are not a list of { prompt, report } are a configuration error naming the item', async () => {
  const { agent } = await agentOn();
  const result = await run(agent, {
    prompt: 'Q?',
    exchanges: [{ prompt: 'ok', report: 'ok' }, { prompt: 3 }] as never,
  });
  expect(result.exitCode).toBe('EXIT-CONFIGURATION');
  expect(result.error).toContain('exchanges');
  expect(result.error).toContain('item 1 is not one');
});
