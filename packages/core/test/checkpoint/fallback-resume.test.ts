import type { SessionSnapshot } from '@agent/protocol';
import { createModelClient } from '@agent/providers';
import type { ModelServer } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { type AgentConfig, defineAgent, resume, run } from '../../src/index.js';
import { agentOn, NONCE, STEPS, sent, serve, servers } from './five-turns.js';

// Issue 16: the fallback state is part of a snapshot. The primary model rejects the key on the
// first request (dropped for the session); the 5-turn session goes on with the fallback. Resumed
// after any turn, it never asks the primary again and sends the fallback exactly the requests
// the uninterrupted session did.
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const client = (server: ModelServer, model: string) =>
  createModelClient({
    type: 'openai',
    provider: 'openai',
    model,
    apiKey: 'sk-test-secret-key',
    baseURL: `${server.url}/v1`,
  });

/** The five-turn agent with a primary that is tried first and a fallback. */
function withFallback(primary: ModelServer, fallback: ModelServer): AgentConfig {
  const { model: _one, ...rest } = agentOn(fallback);
  return defineAgent({ ...rest, models: [client(primary, 'gpt-primary'), client(fallback, 'gpt-4.1-mini')] });
}

test('a session whose primary was dropped resumes on the fallback: the primary is never asked again, the requests are the same', async () => {
  const primary = await serve([{ error: { kind: 'auth', message: 'invalid api key' } }]);
  const reference = await serve(STEPS);
  const snapshots: SessionSnapshot[] = [];
  const whole = await run(withFallback(primary, reference), 'Weather in Athens, Rome, Oslo and Lima?', {
    internal: { nonce: NONCE },
    onCheckpoint: (snapshot) => {
      snapshots.push(JSON.parse(JSON.stringify(snapshot)) as SessionSnapshot);
    },
  });
  expect(whole.success, whole.error).toBe(true);
  expect(primary.requests).toHaveLength(1);
  expect(reference.requests).toHaveLength(5);
  expect(snapshots[0]!.droppedTargets).toEqual(['auth', null]);
  const models = (result: typeof whole) =>
    result.accounting.flatMap((e) => (e.type === 'llm' ? [`${e.model} ${e.status}`] : []));
  expect(models(whole)).toEqual(['gpt-primary failed', ...Array(5).fill('gpt-4.1-mini ok')]);

  for (let k = 1; k <= 4; k++) {
    // A primary that would answer now: a resumed session must still not ask it.
    const revived = await serve(STEPS.slice(k));
    const server = await serve(STEPS.slice(k));
    const resumed = await resume(withFallback(revived, server), snapshots[k - 1]!);
    expect(resumed.success, `resumed after turn ${k}: ${resumed.error}`).toBe(true);
    expect(revived.requests).toHaveLength(0);
    expect(server.requests.map(sent)).toEqual(reference.requests.slice(k).map(sent));
    expect(resumed.finalReport?.content).toBe('Four cities looked up.');
    expect(models(resumed)).toEqual(models(whole));
  }
});
