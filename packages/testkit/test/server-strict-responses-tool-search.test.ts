// Strict mode for the Responses API's client-executed tool search, through the official SDK.
import { expect, it } from 'vitest';
import { loadedTools } from '../src/index.js';
import { expectRecordedRefusal, type Json, openai, refusal, server, strict } from './strict-server.js';

const schema = { type: 'object', properties: {} };
const search = { type: 'tool_search', execution: 'client', description: 'Find tools', parameters: schema };
const fn = (name: string, deferred = true) => ({
  type: 'function',
  name,
  description: `The ${name} tool`,
  parameters: schema,
  strict: false,
  ...(deferred ? { defer_loading: true } : {}),
});

/** A conversation whose search loaded `name`. */
const loading = (name: string) => [
  { role: 'user', content: 'Refund INV-7.' },
  { type: 'tool_search_call', call_id: 'call_1', arguments: { query: 'refund' }, execution: 'client' },
  { type: 'tool_search_output', call_id: 'call_1', execution: 'client', tools: [fn(name, false)] },
];

const send = (body: Json) =>
  openai().responses.create({ model: 'gpt-5.4', ...body } as Parameters<
    ReturnType<typeof openai>['responses']['create']
  >[0]);

/** The SDK keeps the body's `error` object: the message is on it. */
const messageOf = (error: Json) => error.message;

it('takes deferred functions beside tool_search and a search output loading one; tells which tools are loaded', async () => {
  await strict();
  await send({ tools: [search, fn('refund'), fn('forecast')], input: loading('refund') });
  const [request] = server().requests;
  expect(request?.rejected).toBeUndefined();
  expect(loadedTools(request!)).toEqual(['tool_search', 'refund']);
  expect(request?.messages.at(-1)).toMatchObject({
    role: 'tool',
    toolName: 'tool_search',
    toolReferences: ['refund'],
  });
});

it('refuses deferred functions without a tool_search tool', async () => {
  await strict();
  const { status, error } = await refusal(() => send({ tools: [fn('refund')], input: 'Refund INV-7.' }));
  expect(status).toBe(400);
  const message =
    "Invalid value for 'tools[0].defer_loading': deferred tools require a 'tool_search' tool in 'tools'.";
  expect(messageOf(error)).toBe(message);
  expectRecordedRefusal(400, message);
});

it('refuses a search output loading a function the request does not define', async () => {
  await strict();
  const { status, error } = await refusal(() =>
    send({ tools: [search, fn('refund')], input: loading('wire_money') }),
  );
  expect(status).toBe(400);
  const message =
    "Invalid value for 'input[2].tools[0]': function 'wire_money' is not one of the request's tools.";
  expect(messageOf(error)).toBe(message);
  expectRecordedRefusal(400, message);
});

it('refuses a search call left unanswered, and a search output answering no call', async () => {
  await strict();
  const [question, call] = loading('refund');
  const unanswered = await refusal(() => send({ tools: [search, fn('refund')], input: [question, call] }));
  expect(messageOf(unanswered.error)).toBe('No tool output found for function call call_1.');
  const [, , output] = loading('refund');
  const orphan = await refusal(() => send({ tools: [search, fn('refund')], input: [question, output] }));
  expect(messageOf(orphan.error)).toBe('No tool call found for function call output with call_id call_1.');
});
