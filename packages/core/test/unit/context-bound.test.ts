import type { SessionSnapshot } from '@agent/protocol';
import { type ScriptStep, scriptedModel } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { createAgentSession } from '../../src/index.js';
import { memoryTools } from '../helpers/memory-tools.js';
import { NONCE, xmlReport } from '../helpers/scenario.js';

/** A model whose tokenizer is "expensive": every exact count is recorded; `bound` as the providers give it. */
function countingModel(steps: ScriptStep[], withBound: boolean) {
  const client = scriptedModel(steps, { provider: 'p', model: 'm' });
  const counted: string[] = [];
  Object.assign(client, {
    countTokens: (text: string) => {
      counted.push(text);
      return Math.ceil(text.length / 4);
    },
    ...(withBound ? { countTokensBound: (text: string) => Buffer.byteLength(text, 'utf8') } : {}),
  });
  return { client, counted };
}

async function runWith(
  withBound: boolean,
  steps: ScriptStep[],
  options: { prompt?: string; system?: string; contextWindow?: number; tools?: boolean } = {},
) {
  const { client, counted } = countingModel(steps, withBound);
  const snapshots: SessionSnapshot[] = [];
  const session = createAgentSession({
    onCheckpoint: (snapshot) => void snapshots.push(snapshot),
    prompt: options.prompt ?? 'Say ok.',
    instructions: options.system ?? 'You answer questions.',
    models: [
      { client, ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }) },
    ],
    tools: options.tools === true ? [memoryTools('t', { small: () => 'tiny' })] : [],
    internal: { nonce: NONCE, sleep: async () => {} },
  });
  const result = await session.run();
  const notices = client.requests.map((request) => String(request.messages.at(-1)?.content));
  const percents = notices.map((notice) => /context window (\d+)% full/.exec(notice)?.[1]);
  return { result, counted, notices, percents, snapshots };
}

describe('upper bounds before exact counts', () => {
  test('a small request that ends the session is sent and answered without one exact count', async () => {
    const run = await runWith(true, [{ text: xmlReport('ok') }]);
    expect(run.result.success).toBe(true);
    expect(run.counted).toEqual([]);
    expect(run.percents).toEqual(['0']);
    // Its finished checkpoint records the correction its request was estimated with.
    expect(run.snapshots.map((snapshot) => [snapshot.status, snapshot.tokenCorrection])).toEqual([
      ['finished', 1],
    ]);
  });

  test('the model sees the same notices as with exact counts only, turn after turn', async () => {
    const steps = (): ScriptStep[] => [
      { toolCalls: [{ id: 's', name: 'small', arguments: {} }], usage: { inputTokens: 90, outputTokens: 5 } },
      { text: xmlReport('ok') },
    ];
    const system = 'You answer questions. '.repeat(40);
    const bounded = await runWith(true, steps(), { system, contextWindow: 4000, tools: true });
    const exact = await runWith(false, steps(), { system, contextWindow: 4000, tools: true });
    expect(bounded.result.success).toBe(true);
    // The bound (bytes) does not settle the first percent here: the conversation is counted.
    expect(bounded.counted.length).toBeGreaterThan(0);
    expect(bounded.notices).toEqual(exact.notices);
    expect(bounded.percents).toEqual(['6', '2']);
    // The running checkpoint after turn 1 holds the correction learned from its report, as before.
    expect(bounded.snapshots.map((snapshot) => snapshot.tokenCorrection)).toEqual(
      exact.snapshots.map((snapshot) => snapshot.tokenCorrection),
    );
    expect(bounded.snapshots[0]?.tokenCorrection).not.toBe(1); // the second after the correction the reported usage taught
  });

  test('when the bound does not prove a fit the exact count decides: a request that fits is sent', async () => {
    // 3,000 bytes of prompt, 750 tokens exactly: the bound alone would not fit a 1,000-token window.
    const run = await runWith(true, [{ text: xmlReport('ok') }], {
      prompt: 'abcd'.repeat(750),
      contextWindow: 1500,
    });
    expect(run.result.success).toBe(true);
    expect(run.counted.length).toBeGreaterThan(0);
    const started = run.result.logs.filter((entry) => entry.remoteIdentifier === 'agent:EXIT-TOKEN-LIMIT');
    expect(started).toEqual([]);
  });

  test('a request that does not fit still forces the final turn, with its exact projection', async () => {
    const bounded = await runWith(true, [{ text: xmlReport('ok') }], {
      prompt: 'abcd'.repeat(1500),
      contextWindow: 1500,
    });
    const exact = await runWith(false, [{ text: xmlReport('ok') }], {
      prompt: 'abcd'.repeat(1500),
      contextWindow: 1500,
    });
    const guard = (run: typeof bounded) =>
      run.result.logs.find((entry) => entry.remoteIdentifier === 'agent:EXIT-TOKEN-LIMIT')?.details;
    expect(guard(bounded)).toMatchObject({ trigger: 'turn_projection' });
    expect(guard(bounded)).toEqual(guard(exact));
  });
});
