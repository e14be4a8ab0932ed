import OpenAI from 'openai';
import { expect, test } from 'vitest';
import { scriptedModel, sessionNonce, startModelServer } from '../src/index.js';

const notice = (nonce: string) =>
  `Turn 1 of 10. Wrap the report in <ai-agent-${nonce}-FINAL format="json">...</ai-agent-${nonce}-FINAL>.`;

test('{{NONCE}} in scripted text becomes the nonce the session sent, in-process', async () => {
  const model = scriptedModel([{ text: ['<ai-agent-{{NONCE}}-FINAL>', 'x', '</ai-agent-{{NONCE}}-FINAL>'] }]);
  let text = '';
  for await (const event of model.stream({ messages: [{ role: 'user', content: notice('0badc0de') }] })) {
    if (event.type === 'text-delta') text += event.text;
  }
  expect(text).toBe('<ai-agent-0badc0de-FINAL>x</ai-agent-0badc0de-FINAL>');
});

test('{{NONCE}} is filled over HTTP too, so a static script file can end a session', async () => {
  const server = await startModelServer({
    steps: [{ text: 'done: <ai-agent-{{NONCE}}-FINAL>ok</ai-agent-{{NONCE}}-FINAL>' }],
  });
  try {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'test', maxRetries: 0 });
    const answer = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: notice('feedf00d') }],
    });
    expect(answer.choices[0]?.message.content).toBe(
      'done: <ai-agent-feedf00d-FINAL>ok</ai-agent-feedf00d-FINAL>',
    );
  } finally {
    await server.close();
  }
});

test('without a nonce in the request the placeholder stays, and the newest mention wins', () => {
  expect(sessionNonce([{ role: 'user', content: 'no tag here' }])).toBeUndefined();
  expect(
    sessionNonce([
      { role: 'user', content: notice('aaaa1111') },
      { role: 'assistant', content: '<ai-agent-bbbb2222-FINAL>' },
      { role: 'user', content: notice('cccc3333') },
    ]),
  ).toBe('cccc3333');
});
