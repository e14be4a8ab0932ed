// Every wrapper of a model client (tracing with --trace-llm, recording a tape) keeps what the
// client declares: a traced session must count its context with the same tokenizer as an
// untraced one, and make the same calls.
import type { ModelClient, ModelStreamEvent } from '@agent/protocol';
import { expect, test } from 'vitest';
import { recordModelClient, TapeWriter } from '../src/persistence/tape-recorder.js';
import { traceModelClient } from '../src/session-run/tracing.js';

const events: ModelStreamEvent[] = [
  { type: 'text-delta', text: 'hi' },
  { type: 'finish', stopReason: 'stop' },
];

const client: ModelClient = {
  provider: 'openai',
  model: 'm',
  parallelToolCalls: true,
  deferredTools: true,
  countTokens: (text) => text.length * 10,
  countTokensBound: (text) => text.length * 20,
  async *stream() {
    yield* events;
  },
};

test('traced and recorded clients keep the token counters and capabilities, and the stream', async () => {
  const wrapped = {
    traced: traceModelClient(client, () => {}),
    recorded: recordModelClient(client, new TapeWriter({ agentPath: 'a', ordinal: 0 }), {
      provider: 'p',
      model: 'm',
    }),
  };
  for (const [name, wrapper] of Object.entries(wrapped)) {
    expect({ name, parallel: wrapper.parallelToolCalls, deferred: wrapper.deferredTools }).toEqual({
      name,
      parallel: true,
      deferred: true,
    });
    expect([wrapper.countTokens?.('abc'), wrapper.countTokensBound?.('abc')], name).toEqual([30, 60]);
    const seen: ModelStreamEvent[] = [];
    for await (const event of wrapper.stream({ messages: [] })) seen.push(event);
    expect(seen, name).toEqual(events);
  }
});
