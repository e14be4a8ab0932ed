import { finalReport, type RedisServer, startRedisServer } from '@agent/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRestHeadend, type ServedHeadend, serve } from '../src/index.js';
import { type ApprovalAgents, deployCall, startApprovalAgents } from './helpers/approvals.js';

// Issue 16 over REST, "a store that is down": the server's Redis session store (a real
// redis-server with an append-only file and a password) stops while a session waits for
// approval. GET and POST answer 500 naming the store, its password redacted, and change nothing;
// once Redis is back on its port with its data, the same session is shown and resumes.
const PASSWORD = 'pw-s3cret';
let redis: RedisServer;
let agents: ApprovalAgents;
let server: ServedHeadend;
const auth = { authorization: 'Bearer t1', 'content-type': 'application/json' };

beforeAll(async () => {
  redis = await startRedisServer({ appendOnly: true, password: PASSWORD });
  agents = await startApprovalAgents({ config: { sessions: { store: 'redis', url: redis.url } } });
  server = await serve(createRestHeadend({ catalog: agents.catalog, tokens: ['t1'] }));
});

afterAll(async () => {
  await server.close();
  await agents.close();
  await redis.close();
});

const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
const getSession = (id: string) => fetch(`${server.url}/v1/sessions/${id}`, { headers: auth });

it('GET and POST name the stopped store (password redacted); after a restart the session is there and resumes', async () => {
  agents.model.push(deployCall('call_r1'));
  const run = await post('/v1/agents/deployer/run', { prompt: 'Deploy to prod.' });
  const { sessionId, exitCode } = (await run.json()) as { sessionId: string; exitCode: string };
  expect(exitCode).toBe('EXIT-AWAITING-APPROVAL');
  const before = await (await getSession(sessionId)).json();

  await redis.stop();
  const shown = await getSession(sessionId);
  expect(shown.status).toBe(500);
  const shownText = await shown.text();
  expect(shownText).toContain(
    `the session store cannot be read: session store redis://:[redacted]@127.0.0.1:${redis.port}: reading session ${sessionId}`,
  );
  const decided = await post(`/v1/sessions/${sessionId}/approvals`, {
    decisions: { call_r1: { approved: true } },
  });
  expect(decided.status).toBe(500);
  const decidedText = await decided.text();
  expect(decidedText).toContain(`session store redis://:[redacted]@127.0.0.1:${redis.port}`);
  for (const text of [shownText, decidedText]) expect(text).not.toContain(PASSWORD);
  expect(agents.deployments()).toEqual([]);

  await redis.restart();
  const back = await getSession(sessionId);
  expect(back.status).toBe(200);
  expect(await back.json()).toEqual(before);
  agents.model.push(finalReport('Deployed after the outage.'));
  const resumed = await post(`/v1/sessions/${sessionId}/approvals`, {
    decisions: { call_r1: { approved: true } },
  });
  expect(resumed.status).toBe(200);
  expect(await resumed.json()).toMatchObject({
    success: true,
    finalReport: { content: 'Deployed after the outage.' },
  });
  expect(agents.deployments().map((d) => d.arguments)).toEqual([{ env: 'prod' }]);
});
