// Strict mode for Anthropic's deferred tools and tool references (tool search), through the official SDK.
import { expect, it } from 'vitest';
import { loadedTools } from '../src/index.js';
import { anthropic, expectRecordedRefusal, type Json, refusal, server, strict } from './strict-server.js';

const BETA = { 'anthropic-beta': 'advanced-tool-use-2025-11-20' };
const schema = { type: 'object', properties: {} };
const search = { name: 'tool_search', description: 'Find tools', input_schema: schema };
const refund = { name: 'refund', description: 'Refunds', input_schema: schema, defer_loading: true };
const other = { name: 'forecast', description: 'Weather', input_schema: schema, defer_loading: true };

/** A conversation whose tool_search result references `name`. */
const referencing = (name: string) => [
  { role: 'user', content: 'Refund INV-7.' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'tool_search', input: {} }] },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'tool_reference', tool_name: name }] },
    ],
  },
];

const send = (body: Json, headers: Record<string, string> = BETA) =>
  anthropic().post('/v1/messages', {
    body: { model: 'claude-sonnet-4-5', max_tokens: 1024, ...body },
    headers,
  });

const messageOf = (error: Json) => (error.error as Json).message;

it('takes deferred tools with the beta, and tells which tools a request has loaded', async () => {
  await strict();
  await send({ tools: [search, refund, other], messages: referencing('refund') });
  expect(server().requests[0]?.rejected).toBeUndefined();
  expect(loadedTools(server().requests[0]!)).toEqual(['tool_search', 'refund']);
});

it('refuses deferred tools without the beta header', async () => {
  await strict();
  const { status, error } = await refusal(() =>
    send({ tools: [search, refund], messages: referencing('refund') }, {}),
  );
  expect(status).toBe(400);
  expect(messageOf(error)).toBe('tools.1.custom.defer_loading: Extra inputs are not permitted');
  expectRecordedRefusal(400, 'tools.1.custom.defer_loading: Extra inputs are not permitted');
});

it('refuses a reference to a tool that is not deferred in the request, and every tool deferred', async () => {
  await strict();
  const loaded = await refusal(() => send({ tools: [search, refund], messages: referencing('tool_search') }));
  expect(messageOf(loaded.error)).toBe(
    "messages.2: tool_reference to 'tool_search', which is not a deferred tool of this request (tools with defer_loading: true)",
  );
  const missing = await refusal(() => send({ tools: [search, refund], messages: referencing('delete_all') }));
  expect(messageOf(missing.error)).toContain("tool_reference to 'delete_all'");
  const allDeferred = await refusal(() =>
    send({ tools: [{ ...search, defer_loading: true }, refund], messages: referencing('refund') }),
  );
  expect(messageOf(allDeferred.error)).toBe('At least one tool must have defer_loading set to false.');
  expect(server().remaining).toBe(1);
});

it('refuses a cache breakpoint on a deferred tool', async () => {
  await strict();
  const { error } = await refusal(() =>
    send({
      tools: [search, { ...refund, cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'hi' }],
    }),
  );
  expect(messageOf(error)).toBe('tools.1: cache_control cannot be set on a tool with defer_loading');
});
