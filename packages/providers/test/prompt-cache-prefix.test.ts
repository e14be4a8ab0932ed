// Issue 42: what a user's bill depends on. A session's requests, turn after turn, as the core
// sends them (the history, then a per-turn notice as the last user message), through the
// official clients to the testkit server; the bodies it received must keep the earlier turn's
// prefix byte for byte (OpenAI caches it automatically), and Anthropic's marks must sit where
// the next turn reads the previous turn's whole history from the cache.
import type { ConversationMessage, ModelRequest, ToolDefinition } from '@agent/protocol';
import { type ModelServer, startModelServer } from '@agent/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderType } from '../src/index.js';
import { clientFor, collect } from './helpers.js';

const tools: ToolDefinition[] = [
  {
    name: 'read_file',
    description: 'Read a file of the repository',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  {
    name: 'grep',
    description: 'Search the repository',
    inputSchema: { type: 'object', properties: { pattern: { type: 'string' } }, required: ['pattern'] },
  },
];

const opening: ConversationMessage[] = [
  { role: 'system', content: 'You are a careful maintainer. Read before you change anything.' },
  { role: 'user', content: 'Why does the nightly export fail?' },
];

/** Turn `n`'s model call and its tool result. */
function toolTurn(n: number): ConversationMessage[] {
  return [
    {
      role: 'assistant',
      content: n % 2 === 0 ? `Reading step ${n}.` : '',
      toolCalls: [{ id: `call_${n}`, name: 'read_file', arguments: { path: `src/export/${n}.ts` } }],
    },
    {
      role: 'tool',
      toolCallId: `call_${n}`,
      toolName: 'read_file',
      content: `export const step${n} = ${n};\n`,
    },
  ];
}

/** The request of turn `turn` (1-based): the history of the turns before it, then the notice. */
function requestOf(turn: number): ModelRequest {
  const history = [...opening];
  for (let n = 1; n < turn; n++) history.push(...toolTurn(n));
  const notice: ConversationMessage = {
    role: 'user',
    content: `# turn ${turn}/10, context ${turn * 3}% full`,
  };
  return { messages: [...history, notice], tools, toolChoice: 'auto' };
}

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({ strict: true });
});
afterAll(() => server.close());

/** The bodies the server received for turns 1..`turns` of one session. */
async function sessionBodies(type: ProviderType, turns: number): Promise<Record<string, unknown>[]> {
  const client = clientFor(server, type);
  const bodies: Record<string, unknown>[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    const before = server.requests.length;
    server.push({ text: 'ok' });
    await collect(client.stream(requestOf(turn)));
    bodies.push(server.requests[before]?.body as Record<string, unknown>);
  }
  return bodies;
}

type Block = Record<string, unknown>;
type Message = { role: string; content: Block[] };

/** Anthropic's cache order, one entry per block: tools, system, then each message's blocks. */
function anthropicBlocks(body: Record<string, unknown>): { key: string; marked: boolean }[] {
  const entry = (prefix: string, block: Block) => {
    const { cache_control, ...rest } = block;
    return { key: `${prefix}${JSON.stringify(rest)}`, marked: cache_control !== undefined };
  };
  return [
    ...((body.tools as Block[] | undefined) ?? []).map((tool) => entry('tool:', tool)),
    ...((body.system as Block[] | undefined) ?? []).map((block) => entry('system:', block)),
    ...(body.messages as Message[]).flatMap((message, m) =>
      message.content.map((block, b) => entry(b === 0 ? `${m}:${message.role}:` : '', block)),
    ),
  ];
}

/** The prefixes a request writes: everything up to and including each marked block. */
function writtenPrefixes(body: Record<string, unknown>): string[] {
  const blocks = anthropicBlocks(body);
  const keys = blocks.map((block) => block.key);
  return blocks.flatMap((block, i) => (block.marked ? [keys.slice(0, i + 1).join('\n')] : []));
}

describe('anthropic cache marks across the turns of a session', () => {
  it('mark the system prompt, the last tool and the newest tool result: never the notice, never over 4', async () => {
    const bodies = await sessionBodies('anthropic', 4);
    for (const body of bodies) {
      expect(JSON.stringify(body).split('"cache_control"').length - 1).toBeLessThanOrEqual(4);
      expect((body.system as Block[])[0]).toHaveProperty('cache_control');
      expect((body.tools as Block[]).at(-1)).toHaveProperty('cache_control');
    }
    // Turn 1 has no history yet: only the system prompt and the tools are marked.
    expect(JSON.stringify(bodies[0]).split('"cache_control"').length - 1).toBe(2);
    const last = (bodies[3]!.messages as Message[]).at(-1);
    expect(last?.content).toHaveLength(2);
    expect(last?.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'call_3', cache_control: {} });
    expect(last?.content[1]).not.toHaveProperty('cache_control');
  });

  it("each turn reads the previous turn's whole history: its mark's prefix is the next request's, within the 20-block look-back", async () => {
    const bodies = await sessionBodies('anthropic', 6);
    for (let turn = 2; turn < bodies.length; turn++) {
      const previous = writtenPrefixes(bodies[turn - 1]!).at(-1)!;
      const blocks = anthropicBlocks(bodies[turn]!);
      const keys = blocks.map((block) => block.key);
      const read = keys.findIndex((_, i) => keys.slice(0, i + 1).join('\n') === previous);
      expect(read, `turn ${turn + 1} cannot read turn ${turn}'s history`).toBeGreaterThan(0);
      // The newest mark of this request, and the previous write close enough behind it.
      const mark = blocks.findLastIndex((block) => block.marked);
      expect(mark - read).toBeGreaterThan(0);
      expect(mark - read).toBeLessThanOrEqual(20);
      // What is not read: only this turn's model call, its tool result and the notice.
      expect(blocks.length - 1 - read).toBe(turn % 2 === 0 ? 4 : 3);
    }
  });

  it('a retry of the same turn (another notice) keeps the marks where they were', async () => {
    const [first] = await sessionBodies('anthropic', 3).then((bodies) => bodies.slice(2));
    const turn3 = requestOf(3);
    const retry = {
      ...turn3,
      messages: [
        ...turn3.messages.slice(0, -1),
        { role: 'user' as const, content: '# turn 3/10, attempt 2/3' },
      ],
    };
    const before = server.requests.length;
    server.push({ text: 'ok' });
    await collect(clientFor(server, 'anthropic').stream(retry));
    const second = server.requests[before]?.body as Record<string, unknown>;
    expect(writtenPrefixes(second)).toEqual(writtenPrefixes(first!));
  });
});

describe.each(['openai', 'openai-responses'] as const)('%s: byte-stable prefix between turns', (type) => {
  it('every request repeats the previous one byte for byte but for its trailing notice', async () => {
    const bodies = await sessionBodies(type, 5);
    const items = (body: Record<string, unknown>) =>
      ((type === 'openai' ? body.messages : body.input) as unknown[]).map((item) => JSON.stringify(item));
    for (let turn = 1; turn < bodies.length; turn++) {
      const previous = items(bodies[turn - 1]!);
      const current = items(bodies[turn]!);
      expect(JSON.stringify(bodies[turn]!.tools)).toBe(JSON.stringify(bodies[turn - 1]!.tools));
      expect(current.slice(0, previous.length - 1)).toEqual(previous.slice(0, -1));
      // The notice the previous turn ended with is not part of the history any more.
      expect(current).not.toContain(previous.at(-1));
      // Everything but the messages is the same too (model, tool choice, stream options...).
      const { messages: _m, input: _i, ...rest } = bodies[turn]!;
      const { messages: _pm, input: _pi, ...previousRest } = bodies[turn - 1]!;
      expect(JSON.stringify(rest)).toBe(JSON.stringify(previousRest));
    }
  });
});
