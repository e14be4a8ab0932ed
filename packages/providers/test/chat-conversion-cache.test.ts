// A client converts each conversation message once and reuses it on later requests: the
// bodies must stay exactly what a fresh conversion gives, also when a tool call id's mapping
// changes with the messages before it, when a message is changed in place, and when the tools
// change.
import type { ConversationMessage, ModelRequest, ToolDefinition } from '@agent/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveRequestRules } from '../src/model-traits.js';
import { ChatConversionCache } from '../src/openai-chat/conversion-cache.js';
import { buildChatBody, type ChatRequestOptions } from '../src/openai-chat/request.js';

function options(model: string, cache?: ChatConversionCache): ChatRequestOptions {
  const rules = resolveRequestRules({ type: 'openai', provider: 'openai', model, apiKey: 'k' });
  return { model, provider: 'openai', rules, ...(cache === undefined ? {} : { cache }) };
}

const lookup: ToolDefinition = {
  name: 'lookup',
  description: 'Looks a key up',
  inputSchema: { type: 'object', properties: { key: { type: 'string' } } },
};

function turn(id: string): ConversationMessage[] {
  return [
    { role: 'assistant', content: '', toolCalls: [{ id, name: 'lookup', arguments: { key: id } }] },
    { role: 'tool', toolCallId: id, toolName: 'lookup', content: `value of ${id}` },
  ];
}

/** Builds each request with the cache and without, and returns the cached bodies' messages. */
function both(model: string, requests: ModelRequest[]) {
  const cache = new ChatConversionCache();
  return requests.map((request) => {
    const cached = buildChatBody(request, options(model, cache)).body;
    const fresh = buildChatBody(request, options(model)).body;
    expect(JSON.stringify(cached)).toBe(JSON.stringify(fresh));
    return cached;
  });
}

describe('the chat client conversion cache', () => {
  it('resends a growing conversation exactly as a fresh conversion, reusing the converted messages', () => {
    const conversation: ConversationMessage[] = [
      { role: 'system', content: 'Be terse.' },
      { role: 'user', content: 'Look up a and b.' },
    ];
    const requests: ModelRequest[] = [];
    for (const id of ['call_a', 'call_b', 'call_c']) {
      conversation.push(...turn(id));
      requests.push({
        messages: [...conversation, { role: 'user', content: `notice ${id}` }],
        tools: [lookup],
      });
    }
    const [first, , third] = both('gpt-4.1-mini', requests);
    // The same converted objects are sent again: the work is done once per message.
    expect(third!.messages[2]).toBe(first!.messages[2]);
    expect(third!.tools).toBe(first!.tools);
  });

  it('converts a message again when the mapping of its tool call id changed', () => {
    // Mistral ids are nine alphanumerics: `dup` is digested, and its second use gets another id.
    const repeated = turn('dup');
    const later = turn('dup');
    const withBoth: ModelRequest = { messages: [{ role: 'user', content: 'go' }, ...repeated, ...later] };
    const withoutFirst: ModelRequest = { messages: [{ role: 'user', content: 'go' }, ...later] };
    const [a, b] = both('mistral-large-latest', [withBoth, withoutFirst]);
    const idOf = (body: typeof a, index: number) =>
      (body!.messages[index] as { tool_calls?: { id: string }[] }).tool_calls?.[0]?.id;
    expect(idOf(a, 3)).not.toBe(idOf(b, 1));
    expect(idOf(b, 1)).toBe(idOf(a, 1));
  });

  it('sees a message changed in place and a tool list changed in place', () => {
    const user: ConversationMessage = { role: 'user', content: 'first text' };
    const tools = [lookup];
    const request: ModelRequest = { messages: [user], tools };
    const cache = new ChatConversionCache();
    buildChatBody(request, options('gpt-4.1-mini', cache));
    user.content = 'second text';
    tools.push({ ...lookup, name: 'lookup_two' });
    const body = buildChatBody(request, options('gpt-4.1-mini', cache)).body;
    expect(body.messages).toEqual([{ role: 'user', content: 'second text' }]);
    expect(body.tools?.map((tool) => (tool as { function: { name: string } }).function.name)).toEqual([
      'lookup',
      'lookup_two',
    ]);
  });

  it('continues a conversation from where the last request left it, and gives what a fresh conversion gives', () => {
    // Each step grows the conversation (tool turns, some with images, some reusing an id), then
    // sends it with or without an ephemeral notice, or sends only a cut of it (a rewritten history).
    const step = fc.record({
      kind: fc.constantFrom('turn', 'user', 'cut'),
      id: fc.constantFrom('call_a', 'call_b', 'dup', 'x'.repeat(50)),
      image: fc.boolean(),
      notice: fc.boolean(),
      cut: fc.nat(),
    });
    const models = ['gpt-4.1-mini', 'mistral-large-latest'];
    fc.assert(
      fc.property(fc.constantFrom(...models), fc.array(step, { maxLength: 12 }), (model, steps) => {
        const conversation: ConversationMessage[] = [{ role: 'system', content: 'Be terse.' }];
        const requests: ModelRequest[] = [];
        for (const [index, s] of steps.entries()) {
          if (s.kind === 'turn') {
            const [call, result] = turn(s.id) as [
              ConversationMessage,
              ConversationMessage & { role: 'tool' },
            ];
            if (s.image) result.parts = [{ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }];
            conversation.push(call, result);
          } else if (s.kind === 'user') conversation.push({ role: 'user', content: `more ${index}` });
          const base =
            s.kind === 'cut' ? conversation.slice(0, 1 + (s.cut % conversation.length)) : conversation;
          const tail: ConversationMessage[] = s.notice ? [{ role: 'user', content: `notice ${index}` }] : [];
          requests.push({ messages: [...base, ...tail], tools: [lookup] });
        }
        both(model, requests);
      }),
      { numRuns: 300 },
    );
  });
});
