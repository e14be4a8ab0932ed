// Issue 24, item 6: Responses API defaults. Summaries only when asked (unverified organisations
// get a 400), encrypted reasoning always for reasoning models, replayed items in the order the
// API returned them, and no reasoning item without the item that followed it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversationMessage } from '@agent/protocol';
import { startModelServer } from '@agent/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { collectError } from './helpers.js';
import { afterTools, clientAt, collect, strictServers, type Target, weatherTool } from './strict-targets.js';

const server = strictServers();
const gpt5: Target = { type: 'openai-responses', model: 'gpt-5-mini' };
const hi: ConversationMessage[] = [{ role: 'user', content: 'Weather in Paris and Rome?' }];
type Json = Record<string, unknown>;

describe('reasoning summaries and encrypted reasoning', () => {
  it('a reasoning model gets its encrypted reasoning asked for even without an effort, and no summary', async () => {
    const s = await server();
    s.push({ text: 'ok' }, { text: 'ok' });
    await collect(clientAt(s, gpt5).stream({ messages: hi }));
    await collect(clientAt(s, gpt5).stream({ messages: hi, reasoning: { effort: 'low' } }));
    const [plain, low] = s.requests.map((r) => r.body as Json);
    expect(plain?.include).toEqual(['reasoning.encrypted_content']);
    expect(plain?.reasoning).toBeUndefined();
    expect(low?.reasoning).toEqual({ effort: 'low' });
    expect(s.requests.map((r) => r.rejected)).toEqual([undefined, undefined]);
  });

  it('summaries are opt-in: an unverified organisation refuses them, a verified one gets them', async () => {
    const s = await server();
    const withSummary: Target = { ...gpt5, config: { reasoningSummary: 'auto' } };
    const { error } = await collectError(
      clientAt(s, withSummary).stream({ messages: hi, reasoning: { effort: 'low' } }),
    );
    expect(error).toMatchObject({ kind: 'bad_request', status: 400 });
    expect(error.providerMessage).toMatch(
      /^Your organization must be verified to generate reasoning summaries/,
    );
    const verified = await startModelServer({
      strict: { verifiedOrganization: true },
      steps: [{ text: 'ok' }],
    });
    try {
      await collect(clientAt(verified, withSummary).stream({ messages: hi, reasoning: { effort: 'low' } }));
      expect(((verified.requests[0]?.body ?? {}) as Json).reasoning).toEqual({
        effort: 'low',
        summary: 'auto',
      });
    } finally {
      await verified.close();
    }
  });
});

describe('replayed output items', () => {
  const fixtures = mkdtempSync(join(tmpdir(), 'responses-order-'));
  afterAll(() => rmSync(fixtures, { recursive: true, force: true }));

  const reasoning = (id: string, text: string, enc: string) => ({
    id,
    type: 'reasoning',
    summary: [{ type: 'summary_text', text }],
    encrypted_content: enc,
  });
  const call = (id: string, callId: string, city: string) => ({
    id,
    type: 'function_call',
    status: 'completed',
    call_id: callId,
    name: 'get_weather',
    arguments: JSON.stringify({ city }),
  });
  // As a reasoning model interleaves them: reasoning, call, reasoning, call.
  const output = [
    reasoning('rs_1', 'Paris first.', 'enc-1'),
    call('fc_1', 'call_1', 'Paris'),
    reasoning('rs_2', 'Then Rome.', 'enc-2'),
    call('fc_2', 'call_2', 'Rome'),
  ];
  const response = { id: 'resp_1', object: 'response', status: 'completed', model: 'gpt-5-mini', output };
  writeFileSync(join(fixtures, 'interleaved.json'), JSON.stringify(response));
  const events = [
    { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } },
    ...output.flatMap((item, output_index) => [
      { type: 'response.output_item.added', output_index, item: { ...item, summary: [], arguments: '' } },
      { type: 'response.output_item.done', output_index, item },
    ]),
    { type: 'response.completed', response },
  ].map((event, sequence_number) => JSON.stringify({ ...event, sequence_number }));
  writeFileSync(join(fixtures, 'interleaved.chunks.txt'), `${events.join('\n')}\n`);

  it.each([
    ['streamed', 'interleaved.chunks.txt', true],
    ['whole', 'interleaved.json', false],
  ])('go back in the order the API returned them (%s)', async (_, file, stream) => {
    const s = await server({ fixturesDir: fixtures });
    s.push({ replay: file }, { text: 'Done.' });
    const first = await collect(clientAt(s, gpt5).stream({ messages: hi, tools: [weatherTool], stream }));
    expect(first.toolCalls.map((c) => c.id)).toEqual(['call_1', 'call_2']);
    await collect(
      clientAt(s, gpt5).stream({ messages: [...hi, ...afterTools(first)], tools: [weatherTool] }),
    );
    const input = ((s.requests[1]?.body ?? {}) as Json).input as Json[];
    expect(input.map((item) => item.id ?? item.call_id ?? item.role)).toEqual([
      'user',
      'rs_1',
      'call_1',
      'rs_2',
      'call_2',
      'call_1',
      'call_2',
      'user',
    ]);
    expect(s.requests[1]?.rejected).toBeUndefined();
  });

  it('a reasoning item no output followed (an incomplete response) is not sent back', async () => {
    const s = await server();
    s.push(
      { reasoning: { text: 'Thinking at length', signature: 'enc-9' }, stopReason: 'length' },
      { text: 'Done.' },
    );
    const first = await collect(clientAt(s, gpt5).stream({ messages: hi }));
    expect(first.finish?.stopReason).toBe('length');
    const messages: ConversationMessage[] = [
      ...hi,
      ...afterTools(first, 'Your answer was cut off. Continue.'),
    ];
    const answer = await collect(clientAt(s, gpt5).stream({ messages }));
    expect(answer.text).toBe('Done.');
    const input = ((s.requests[1]?.body ?? {}) as Json).input as Json[];
    expect(input.map((item) => item.type ?? 'message')).toEqual(['message', 'message']);
  });
});
