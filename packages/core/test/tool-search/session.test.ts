import type { AgentEvent, ToolSearchRun } from '@agent/protocol';
import { finalReport } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { run } from '../../src/index.js';
import { catalogAgent, NONCE, serve, servers, TOOL_NAMES, toolNames } from './catalog.js';

// Tool search (docs/tool-search.md): past `after` tools the model is offered the always-on tools
// and `tool_search`; what a search finds is offered from the next request on.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const SEARCH = { after: 3, alwaysOn: ['status_*'] };

test('over `after`: the first request offers only the always-on tools, tool_search and the internal ones', async () => {
  const server = await serve([finalReport('Nothing to do.')]);
  const result = await run(catalogAgent(server, [], { toolSearch: SEARCH }), 'Hello.', {
    internal: { nonce: NONCE },
  });
  expect(result.success, result.error).toBe(true);
  const offered = toolNames(server.requests[0]!.tools);
  expect(offered.slice(0, 2)).toEqual(['status_health', 'tool_search']);
  // Nothing else of the catalog: the rest waits behind the search.
  expect(offered.filter((name) => TOOL_NAMES.includes(name))).toEqual(['status_health']);
});

test('at `after` or under it: every tool is sent, and the requests are the same as without tool search', async () => {
  const plain = await serve([finalReport('Done.')]);
  await run(catalogAgent(plain, []), 'Hello.', { internal: { nonce: NONCE } });
  const atLimit = await serve([finalReport('Done.')]);
  await run(catalogAgent(atLimit, [], { toolSearch: { after: TOOL_NAMES.length } }), 'Hello.', {
    internal: { nonce: NONCE },
  });
  expect(toolNames(atLimit.requests[0]!.tools)).not.toContain('tool_search');
  expect(toolNames(atLimit.requests[0]!.tools).filter((n) => TOOL_NAMES.includes(n))).toEqual(TOOL_NAMES);
  expect(atLimit.requests[0]!.body).toEqual(plain.requests[0]!.body);
});

test('the model searches, the found tool is in the next request and its call runs; the tool_search event tells it', async () => {
  const server = await serve([
    { toolCalls: [{ id: 'call_s1', name: 'tool_search', arguments: { query: 'refund an invoice' } }] },
    {
      toolCalls: [{ id: 'call_r1', name: 'billing__refundInvoice', arguments: { invoice_number: 'INV-7' } }],
    },
    finalReport('Refunded INV-7.'),
  ]);
  const ran: string[] = [];
  const events: AgentEvent[] = [];
  const result = await run(
    catalogAgent(server, ran, { toolSearch: { ...SEARCH, maxResults: 2 } }),
    'Refund INV-7.',
    {
      internal: { nonce: NONCE },
      onEvent: (event) => events.push(event),
    },
  );
  expect(result.success, result.error).toBe(true);
  const [first, second, third] = server.requests.map((r) => toolNames(r.tools));
  expect(first).not.toContain('billing__refundInvoice');
  // The search's answer: the best match first, with its one-line description, callable next step.
  const answer = server.requests[1]!.messages.find((m) => m.role === 'tool')!.content;
  expect(answer.split('\n')[0]).toBe(
    'billing__refundInvoice: Gives the money of a paid invoice back to the customer',
  );
  expect(answer).toContain('can be called from your next step');
  const runs = events.flatMap((e) => (e.type === 'tool_search' ? [e.run] : []));
  expect(runs).toHaveLength(1);
  const searched = runs[0] as ToolSearchRun;
  expect(searched).toMatchObject({ turn: 1, query: 'refund an invoice', deferred: TOOL_NAMES.length - 1 });
  expect(searched.results[0]).toBe('billing__refundInvoice');
  expect(searched.results.length).toBeLessThanOrEqual(2);
  expect(searched.added).toEqual(searched.results);
  // Found tools are offered from the next request on, after the always-on ones, in the order found.
  expect(second!.slice(0, 1 + searched.results.length)).toEqual(['status_health', ...searched.results]);
  expect(third).toEqual(second);
  expect(ran).toEqual(['billing__refundInvoice:INV-7']);
});

test('a search that finds nothing says so and suggests other words; nothing is added', async () => {
  const server = await serve([
    { toolCalls: [{ id: 'call_s1', name: 'tool_search', arguments: { query: 'zzzyx qqqv' } }] },
    finalReport('No such tool.'),
  ]);
  const result = await run(catalogAgent(server, [], { toolSearch: SEARCH }), 'Do zzzyx.', {
    internal: { nonce: NONCE },
  });
  expect(result.success, result.error).toBe(true);
  const answer = server.requests[1]!.messages.find((m) => m.role === 'tool')!.content;
  expect(answer).toMatch(/^No tool matches "zzzyx qqqv"\. Try other words/);
  expect(toolNames(server.requests[1]!.tools)).toEqual(toolNames(server.requests[0]!.tools));
});

test('a registered tool called by its exact name before any search runs, and is offered from then on', async () => {
  const server = await serve([
    { toolCalls: [{ id: 'call_w1', name: 'weather__forecast', arguments: { city: 'Oslo' } }] },
    finalReport('Rain.'),
  ]);
  const ran: string[] = [];
  const result = await run(catalogAgent(server, ran, { toolSearch: SEARCH }), 'Weather in Oslo?', {
    internal: { nonce: NONCE },
  });
  expect(result.success, result.error).toBe(true);
  expect(ran).toEqual(['weather__forecast:Oslo']);
  expect(toolNames(server.requests[0]!.tools)).not.toContain('weather__forecast');
  expect(toolNames(server.requests[1]!.tools).slice(0, 3)).toEqual([
    'status_health',
    'weather__forecast',
    'tool_search',
  ]);
});

test('bad arguments to tool_search get a clear failure naming the allowed values', async () => {
  const server = await serve([
    { toolCalls: [{ id: 'call_s1', name: 'tool_search', arguments: { query: 'x'.repeat(501) } }] },
    { toolCalls: [{ id: 'call_s2', name: 'tool_search', arguments: { query: 'issue', limit: 0 } }] },
    finalReport('Gave up.'),
  ]);
  await run(catalogAgent(server, [], { toolSearch: SEARCH }), 'Go.', { internal: { nonce: NONCE } });
  const failure = (i: number) =>
    server.requests[i]!.messages.filter((m) => m.role === 'tool').at(-1)!.content;
  expect(failure(1)).toBe('(tool failed: tool_search: "query" is 501 characters; at most 500 are allowed)');
  expect(failure(2)).toBe('(tool failed: tool_search: "limit" must be a whole number from 1 to 5)');
});

test('bad settings are refused when the agent is defined, each problem named with what is allowed', async () => {
  const server = await serve([]);
  const define = () =>
    catalogAgent(server, [], {
      toolSearch: { after: -1, alwaysOn: 'x', maxResults: 21, later: true } as never,
    });
  expect(define).toThrow(
    'invalid agent config: toolSearch.later is not a tool search setting (the keys are after, alwaysOn, maxResults, native); ' +
      'toolSearch.after must be a whole number from 0 to 100000 (tool search is on when the session has more tools; 0: always), got -1; ' +
      'toolSearch.alwaysOn must be a list of tool-name globs (non-empty strings), e.g. ["github__*", "rest__status"], got "x"; ' +
      'toolSearch.maxResults must be a whole number from 1 to 20 (tools per search; default 5), got 21',
  );
  expect(() => catalogAgent(server, [], { toolSearch: {} as never })).toThrow(
    'toolSearch.after is required: a whole number from 0 to 100000',
  );
  expect(server.requests).toHaveLength(0);
});
