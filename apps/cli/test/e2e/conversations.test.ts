import type { RecordedRequest } from '@agent/testkit';
import { afterAll, expect, test } from 'vitest';
import { removeWorkspaces, report, type Step, scriptedAgent } from './helpers.js';

afterAll(removeWorkspaces);

// Issue 16, conversations through the CLI: `agent run FILE "prompt" --conversation NAME` brings
// back the earlier prompts and final reports of NAME (never the tool chatter), from the
// session store under the state directory.

/** The user and assistant texts of a request, without the system prompt and the turn notice. */
const dialogue = (request: RecordedRequest) =>
  request.messages
    .filter((m) => m.role === 'user' || (m.role === 'assistant' && !m.toolCalls?.length))
    .map((m) => `${m.role}: ${String(m.content)}`)
    .filter((line) => !line.startsWith('user: # XML-NEXT'));

const chatter: Step = () => ({
  text: 'Checking my notes first.',
  toolCalls: [{ id: 'chatter_1', name: 'agent__batch', arguments: { calls: [] } }],
});

test('three runs of one conversation: the third request carries the first two prompts and reports, and no tool chatter', async () => {
  const { server, run } = await scriptedAgent([
    chatter,
    report('Paris is the capital of France.'),
    report('About 2.1 million people.'),
    report('You asked about the capital of France.'),
  ]);
  const first = await run(['run', 'ask.ai', 'Capital of France?', '--conversation', 'trip']);
  expect(first.code, first.stderr).toBe(0);
  expect(first.stdout).toContain('Paris is the capital of France.');
  const second = await run(['run', 'ask.ai', 'How many live there?', '--conversation', 'trip']);
  expect(second.code, second.stderr).toBe(0);
  const third = await run(['run', 'ask.ai', 'What did I ask first?', '--conversation', 'trip']);
  expect(third.code, third.stderr).toBe(0);
  expect(third.stdout).toContain('You asked about the capital of France.');

  expect(server.requests).toHaveLength(4);
  const request = server.requests[3]!;
  expect(dialogue(request)).toEqual([
    'user: Capital of France?',
    'assistant: Paris is the capital of France.',
    'user: How many live there?',
    'assistant: About 2.1 million people.',
    'user: What did I ask first?',
  ]);
  const sent = JSON.stringify(request.messages);
  expect(sent).not.toContain('chatter_1');
  expect(sent).not.toContain('Checking my notes first.');
  expect(request.messages.some((m) => m.role === 'tool')).toBe(false);
});

test('a small context window drops the oldest exchange: the request lacks it and stderr says how many were dropped', async () => {
  const long = `The long answer: ${'lorem ipsum dolor sit amet '.repeat(300)}`;
  const { server, run } = await scriptedAgent(
    [report(long), report('Short answer.'), report('Third answer.')],
    'models: test/scripted-model\nmaxTurns: 4\ncontextWindow: 2600',
  );
  expect((await run(['run', 'ask.ai', 'Long question?', '--conversation', 'small'])).code).toBe(0);
  expect((await run(['run', 'ask.ai', 'Short question?', '--conversation', 'small'])).code).toBe(0);
  const third = await run(['run', 'ask.ai', 'Third question?', '--conversation', 'small']);
  expect(third.code, third.stderr).toBe(0);
  expect(dialogue(server.requests[2]!)).toEqual([
    'user: Short question?',
    'assistant: Short answer.',
    'user: Third question?',
  ]);
  expect(third.stderr).toMatch(
    /conversation: dropped the 1 oldest of 2 earlier exchanges to fit the context window/,
  );
});

test('a bad --conversation name is a configuration error (exit 7) naming what is allowed; the model is not called', async () => {
  const { server, run } = await scriptedAgent([report('never')]);
  for (const bad of ['../etc/passwd', 'has space', 'x'.repeat(129)]) {
    const result = await run(['run', 'ask.ai', 'Hi', '--conversation', bad]);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('is not a conversation id (1-128 letters, digits, ".", "_", ":" or "-"');
  }
  expect(server.requests).toHaveLength(0);
});
