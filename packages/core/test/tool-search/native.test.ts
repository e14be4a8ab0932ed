import type { ModelClient, SessionSnapshot } from '@agent/protocol';
import { createModelClient } from '@agent/providers';
import { loadedTools, type ModelServer, type RecordedRequest } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { settingsHash } from '../../src/checkpoint/settings-hash.js';
import { TokenEstimator } from '../../src/context/token-estimator.js';
import { resume, run } from '../../src/index.js';
import {
  catalogAgent,
  NONCE,
  NATIVE_STEPS as STEPS,
  serve,
  servers,
  TOOL_NAMES,
  toolNames,
} from './catalog.js';

// Provider-native loading (docs/tool-search.md): with `native` and a model that loads deferred
// tools (Anthropic), every tool is sent all session, the hidden ones deferred, and the search
// result references what it found, which the API then loads. The tools block never changes.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const SEARCH = { after: 3, alwaysOn: ['status_*'], maxResults: 2, native: true };

function claudeOn(server: ModelServer): ModelClient {
  return createModelClient({
    type: 'anthropic',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    apiKey: 'sk-test-secret-key',
    baseURL: server.url,
  });
}

type Body = { tools: Record<string, unknown>[]; messages: { content: unknown }[] };
const bodyOf = (request: RecordedRequest) => request.body as Body;

/** The `tool_reference` blocks of the request's tool results. */
function references(request: RecordedRequest): string[] {
  return bodyOf(request).messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as { type: string; content?: unknown }[])
          .filter((block) => block.type === 'tool_result' && Array.isArray(block.content))
          .flatMap((block) => block.content as { type: string; tool_name: string }[])
          .filter((part) => part.type === 'tool_reference')
          .map((part) => part.tool_name)
      : [],
  );
}

test('native on Anthropic: the same tools block all session, the search references the found tool, the model calls it', async () => {
  const server = await serve(STEPS);
  const ran: string[] = [];
  const agent = catalogAgent(server, ran, { model: claudeOn(server), toolSearch: SEARCH });
  const result = await run(agent, 'Refund INV-7.', { internal: { nonce: NONCE } });
  expect(result.success, result.error).toBe(true);
  expect(server.requests.map((request) => request.rejected)).toEqual([undefined, undefined, undefined]);
  expect(ran).toEqual(['billing__refundInvoice:INV-7']);

  const blocks = server.requests.map((request) => JSON.stringify(bodyOf(request).tools));
  expect(new Set(blocks).size).toBe(1);
  const tools = bodyOf(server.requests[0]!).tools;
  // Every catalog tool is sent; only the always-on one and tool_search are loaded up front.
  expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(TOOL_NAMES));
  const upFront = tools.filter((tool) => tool.defer_loading !== true).map((tool) => String(tool.name));
  expect(upFront.filter((name) => TOOL_NAMES.includes(name))).toEqual(['status_health']);
  expect(upFront).toContain('tool_search');
  // The cache breakpoint is on the last tool loaded up front, never on a deferred one.
  const marked = tools.filter((tool) => tool.cache_control !== undefined);
  expect(marked.map((tool) => tool.name)).toEqual([upFront.at(-1)]);
  expect(
    server.requests.every((r) => r.headers?.['anthropic-beta']?.includes('advanced-tool-use-2025-11-20')),
  ).toBe(true);

  expect(references(server.requests[0]!)).toEqual([]);
  expect(references(server.requests[1]!)).toContain('billing__refundInvoice');
  expect(loadedTools(server.requests[0]!)).not.toContain('billing__refundInvoice');
  expect(loadedTools(server.requests[2]!)).toContain('billing__refundInvoice');
});

test('a resume sends the same tools block and the reference; a found tool whose reference is gone is sent loaded', async () => {
  const live = await serve(STEPS);
  await run(catalogAgent(live, [], { model: claudeOn(live), toolSearch: SEARCH }), 'Refund INV-7.', {
    internal: { nonce: NONCE },
  });

  const first = await serve(STEPS.slice(0, 2));
  const approval = { tools: ['billing__*'] };
  const paused = await run(
    catalogAgent(first, [], { model: claudeOn(first), toolSearch: SEARCH, approval }),
    'Refund INV-7.',
    { internal: { nonce: NONCE } },
  );
  expect(paused.exitCode).toBe('EXIT-AWAITING-APPROVAL');
  const snapshot = JSON.parse(
    JSON.stringify(paused.success ? undefined : paused.snapshot),
  ) as SessionSnapshot;

  const ran: string[] = [];
  const second = await serve(STEPS.slice(2));
  const resumed = await resume(
    catalogAgent(second, ran, { model: claudeOn(second), toolSearch: SEARCH, approval }),
    snapshot,
    { approvals: { call_r1: { approved: true } }, internal: { nonce: NONCE } },
  );
  expect(resumed.success, resumed.error).toBe(true);
  expect(ran).toEqual(['billing__refundInvoice:INV-7']);
  expect(second.requests[0]!.rejected).toBeUndefined();
  expect(JSON.stringify(bodyOf(second.requests[0]!).tools)).toBe(
    JSON.stringify(bodyOf(live.requests[2]!).tools),
  );
  expect(references(second.requests[0]!)).toEqual(references(live.requests[2]!));

  // The same snapshot with the search's turn gone from the conversation (as a compaction would
  // replace it): the found tool has no reference left, so it is sent loaded.
  const compacted = JSON.parse(JSON.stringify(snapshot)) as SessionSnapshot;
  for (const message of compacted.conversation) {
    if (message.role === 'tool') delete message.toolReferences;
  }
  const third = await serve(STEPS.slice(2));
  const again = await resume(
    catalogAgent(third, [], { model: claudeOn(third), toolSearch: SEARCH, approval }),
    compacted,
    { approvals: { call_r1: { approved: true } }, internal: { nonce: NONCE } },
  );
  expect(again.success, again.error).toBe(true);
  expect(third.requests[0]!.rejected).toBeUndefined();
  const refund = bodyOf(third.requests[0]!).tools.find((tool) => tool.name === 'billing__refundInvoice');
  expect(refund?.defer_loading).toBeUndefined();
  expect(references(third.requests[0]!)).toEqual([]);
});

test('native with a Chat Completions model falls back: the found tools join the tools', async () => {
  const server = await serve(STEPS);
  const ran: string[] = [];
  const result = await run(catalogAgent(server, ran, { toolSearch: SEARCH }), 'Refund INV-7.', {
    internal: { nonce: NONCE },
  });
  expect(result.success, result.error).toBe(true);
  expect(ran).toEqual(['billing__refundInvoice:INV-7']);
  const [first, second] = server.requests.map((request) => toolNames(request.tools));
  expect(first).not.toContain('billing__refundInvoice');
  expect(second).toContain('billing__refundInvoice');
  expect(JSON.stringify(server.requests.map((request) => request.body))).not.toContain('defer_loading');
});

test('a native value that is not true or false is refused', async () => {
  const server = await serve([]);
  expect(() => catalogAgent(server, [], { toolSearch: { after: 3, native: 'yes' as never } })).toThrow(
    'toolSearch.native must be true or false (let the provider load found tools: Claude Sonnet/Opus 4.5+, GPT-5.4+ on Responses; default false), got "yes"',
  );
  expect(server.requests).toHaveLength(0);
});

test('the context guard leaves deferred tools out of the tool tokens: they are not in the model context', () => {
  const estimator = new TokenEstimator();
  const schema = { type: 'object', properties: { invoice_number: { type: 'string' } } };
  const loaded = { name: 'tool_search', description: 'Find tools by what they do', inputSchema: schema };
  const hidden = {
    name: 'billing__refundInvoice',
    description: 'Gives money back. '.repeat(50),
    inputSchema: schema,
  };
  const withLoaded = estimator.tools([loaded, hidden]);
  expect(withLoaded).toBeGreaterThan(estimator.tools([loaded]) * 5);
  expect(estimator.tools([loaded, { ...hidden, deferLoading: true }])).toBe(estimator.tools([loaded]));
  expect(estimator.rawToolsBound([loaded, { ...hidden, deferLoading: true }])).toBe(
    estimator.rawToolsBound([loaded]),
  );
});

test('the settings hash counts native only when it is on: a native snapshot does not resume without it', () => {
  const hashed = {
    agent: 'main',
    instructions: undefined,
    expected: { format: 'markdown' } as never,
    reportBack: false,
    internalTools: true,
    maxTurns: 6,
    maxRetries: 3,
    targets: [{ client: { provider: 'anthropic', model: 'claude-sonnet-4-5' } } as never],
    tools: [{ name: 'a', description: '', inputSchema: {} }],
  };
  const search = { after: 3, alwaysOn: [], maxResults: 5 };
  const plain = settingsHash({ ...hashed, toolSearch: search });
  expect(settingsHash({ ...hashed, toolSearch: { ...search, native: false } })).toBe(plain);
  expect(settingsHash({ ...hashed, toolSearch: { ...search, native: true } })).not.toBe(plain);
});
