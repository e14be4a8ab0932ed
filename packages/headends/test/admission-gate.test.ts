import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRestHeadend, type ServedHeadend, serve } from '../src/index.js';
import { echoAnswer, startAgents, type TestAgents } from './helpers/agents.js';

let agents: TestAgents;
let server: ServedHeadend;
let full = false;
const auth = { authorization: 'Bearer t1', 'content-type': 'application/json' };

beforeAll(async () => {
  agents = await startAgents(echoAnswer, ['echo']);
  server = await serve(
    createRestHeadend({
      catalog: agents.catalog,
      tokens: ['t1'],
      // agent-server --queue: the shared queue's length decides.
      admissionGate: async () =>
        full
          ? { retryAfterSeconds: 7, message: 'the run queue is full: 9 runs wait for a worker' }
          : undefined,
    }),
  );
});

afterAll(async () => {
  await server.close();
  await agents.close();
});

describe('admission gate', () => {
  it("answers 429 with the gate's Retry-After and message while it refuses, and runs again after", async () => {
    const run = () =>
      fetch(`${server.url}/v1/agents/echo/run`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ prompt: 'hi' }),
      });
    full = true;
    const refused = await run();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('7');
    expect(await refused.json()).toMatchObject({
      error: { message: 'the run queue is full: 9 runs wait for a worker' },
    });
    full = false;
    const answered = await run();
    expect(answered.status).toBe(200);
    expect(await answered.json()).toMatchObject({ success: true });
  });
});
