import { afterEach, expect, it } from 'vitest';
import { McpToolProvider, TOOL_CALL_ID_META, ToolQueues } from '../src/index.js';
import { FAULT_SERVER, noSignal } from './helpers.js';

// Issue 16: tool calls are at-least-once across a crash, so every tools/call carries the model's
// call id in `_meta` for the server to de-duplicate. The fixture server answers the _meta it got.
const providers: McpToolProvider[] = [];
afterEach(async () => {
  await Promise.all(providers.splice(0).map((provider) => provider.close()));
});

it('sends the tool call id in _meta on tools/call, beside the progress token when progress is asked', async () => {
  const provider = new McpToolProvider(
    'faults',
    { type: 'stdio', command: process.execPath, args: [FAULT_SERVER] },
    { queues: new ToolQueues() },
  );
  providers.push(provider);
  const plain = await provider.execute(
    { name: 'faults__meta', arguments: {}, callId: 'call_abc-1' },
    { signal: noSignal() },
  );
  expect(TOOL_CALL_ID_META).toBe('agent/callId');
  expect(plain.ok && JSON.parse(plain.text)).toEqual({ 'agent/callId': 'call_abc-1' });
  const withProgress = await provider.execute(
    { name: 'faults__meta', arguments: {}, callId: 'call_2' },
    { signal: noSignal(), onProgress: () => {} },
  );
  expect(withProgress.ok && JSON.parse(withProgress.text)).toMatchObject({
    'agent/callId': 'call_2',
    progressToken: expect.anything(),
  });
});
