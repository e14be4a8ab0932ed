// The prompt-cache suite's measures on hand-made request bodies: what they count as cacheable
// is what the providers would serve (a prefix that changes early is not; a mark that moves on
// reads the previous write within the look-back; one past it does not).
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { anthropicShares, LOOK_BACK_BLOCKS, openaiItems, openaiShares } from '../src/prompt-cache/shares.js';

const tool = { type: 'function', function: { name: 'grep', parameters: { type: 'object' } } };
const system = { role: 'system', content: 'You are a maintainer. '.repeat(20) };
const user = { role: 'user', content: 'Why does the export fail?' };
const call = (n: number) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id: `c${n}`, function: { name: 'grep' } }],
});
const result = (n: number) => ({
  role: 'tool',
  tool_call_id: `c${n}`,
  content: `match ${n}: ENOSPC `.repeat(30),
});

describe('openai shares', () => {
  it('a request that extends the previous one byte for byte: all but its new tail is cacheable', () => {
    const first = { messages: [system, user], tools: [tool] };
    const second = { messages: [system, user, call(1), result(1)], tools: [tool] };
    const [share] = openaiShares([first, second]);
    const whole = openaiItems(second).join('\n');
    const prefix = openaiItems(first).join('\n');
    expect(share?.turn).toBe(2);
    expect(share?.inputTokens).toBe(countTokens(whole));
    expect(share?.cachedTokens).toBe(countTokens(prefix));
  });

  it('a counter in the system prompt or tools in another order leave only what precedes the change', () => {
    const first = {
      messages: [{ role: 'system', content: 'Turn 1. You are a maintainer.' }, user],
      tools: [tool],
    };
    const second = {
      messages: [{ role: 'system', content: 'Turn 2. You are a maintainer.' }, user, call(1)],
      tools: [tool],
    };
    expect(openaiShares([first, second])[0]!.cachedTokens).toBeLessThan(
      countTokens(JSON.stringify(tool)) + 10,
    );
    const other = { ...tool, function: { ...tool.function, name: 'read' } };
    const shuffled = openaiShares([
      { messages: [system, user], tools: [tool, other] },
      { messages: [system, user, call(1)], tools: [other, tool] },
    ]);
    expect(shuffled[0]!.share).toBeLessThan(0.05);
  });
});

type Block = Record<string, unknown>;
const mark = { type: 'ephemeral' };
const text = (t: string, marked = false): Block => ({
  type: 'text',
  text: t,
  ...(marked ? { cache_control: mark } : {}),
});
const use = (n: number): Block => ({ type: 'tool_use', id: `t${n}`, name: 'grep', input: {} });
const res = (n: number, marked = false): Block => ({
  type: 'tool_result',
  tool_use_id: `t${n}`,
  content: `match ${n}: ENOSPC `.repeat(30),
  ...(marked ? { cache_control: mark } : {}),
});

/** A Messages body after `turns` tool turns, the history marked at its end, the notice last. */
function body(turns: number, markAt: 'end' | 'assistant' = 'end'): Block {
  const messages: { role: string; content: Block[] }[] = [{ role: 'user', content: [text('Why?')] }];
  for (let n = 1; n <= turns; n++) {
    const last = n === turns;
    const useBlock = last && markAt === 'assistant' ? { ...use(n), cache_control: mark } : use(n);
    messages.push({ role: 'assistant', content: [useBlock] });
    messages.push({ role: 'user', content: [res(n, last && markAt === 'end')] });
  }
  messages.at(-1)!.content.push(text(`notice of turn ${turns + 1}`));
  return {
    system: [text('You are a maintainer. '.repeat(20), true)],
    tools: [{ name: 'grep', input_schema: { type: 'object' }, cache_control: mark }],
    messages,
  };
}

describe('anthropic shares', () => {
  it('a mark at the end of the history: each turn reads all of the previous turn', () => {
    const shares = anthropicShares([body(0), body(1), body(2), body(3)]);
    expect(shares.map((s) => s.turn)).toEqual([2, 3, 4]);
    // Turn 3 reads what turn 2 wrote, the first tool result included: the larger part.
    expect(shares[1]!.share).toBeGreaterThan(0.6);
    expect(shares[2]!.share).toBeGreaterThan(shares[1]!.share);
  });

  it('a mark one turn too early (the last assistant message) reads less: the newest tool result is out', () => {
    const end = anthropicShares([body(0), body(1), body(2), body(3)]);
    const early = anthropicShares([
      body(0),
      body(1, 'assistant'),
      body(2, 'assistant'),
      body(3, 'assistant'),
    ]);
    for (let i = 1; i < end.length; i++) expect(early[i]!.cachedTokens).toBeLessThan(end[i]!.cachedTokens);
  });

  it('no mark, or a write further back than the look-back, reads nothing', () => {
    const unmarked = (b: Block) =>
      JSON.parse(JSON.stringify(b).replaceAll(',"cache_control":{"type":"ephemeral"}', ''));
    expect(anthropicShares([unmarked(body(1)), unmarked(body(2))])[0]!.cachedTokens).toBe(0);
    // Only the history is marked, and the next mark lies more than the look-back past it.
    const only = (b: Block) => ({ ...unmarked(b), messages: (b as { messages: unknown }).messages });
    const far = LOOK_BACK_BLOCKS / 2 + 2;
    const [share] = anthropicShares([only(body(1)), only(body(1 + far))]);
    expect(share!.cachedTokens).toBe(0);
  });
});
