import { spawn } from 'node:child_process';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiHeadend, createRestHeadend, type ServedHeadend, serve } from '../src/index.js';
import { echoAnswer, startAgents, type TestAgents } from './helpers/agents.js';

// The ReDoS fix bypassed by volume: every pattern is RE2-valid (linear-time matching), but a
// schema full of counted repeats makes RE2 build a large program for each one, on the event
// loop, before the request is admitted. Real agents on loopback, the model is the testkit server.

const TOKEN = 'volume-token';
const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

let agents: TestAgents;
let rest: ServedHeadend;
let openai: ServedHeadend;

beforeAll(async () => {
  agents = await startAgents(echoAnswer);
  const options = { catalog: agents.catalog, tokens: [TOKEN], bodyLimitBytes: 4 * 1024 * 1024 };
  rest = await serve(createRestHeadend(options));
  openai = await serve(createOpenAiHeadend(options));
});

afterAll(async () => {
  await Promise.all([rest?.close(), openai?.close()]);
  await agents?.close();
});

/**
 * `count` distinct RE2-valid patterns that each expand to thousands of RE2 instructions
 * (`(a|aa)` repeated up to ~1,000 times) inside an `allOf`. The report's attack used 2,000 of
 * them (62 KB, a 12.6 s stall); 50 per schema stall the unfixed server 1 to 3 s each.
 */
function volumeSchema(count: number, variant: number): Record<string, unknown> {
  return {
    allOf: Array.from({ length: count }, (_, i) => ({
      pattern: `^(a|aa){1,${1000 - variant * count - i}}$`,
    })),
  };
}

/** Polls /health one request at a time until `stop(min)` and `min` answers; returns their latencies. */
function pollHealth(url: string): { stop: (min: number) => Promise<number[]> } {
  const latencies: number[] = [];
  let done = false;
  let least = Number.POSITIVE_INFINITY;
  const loop = (async () => {
    while (!done || latencies.length < least) {
      const started = performance.now();
      const health = await fetch(`${url}/health`);
      await health.arrayBuffer();
      latencies.push(performance.now() - started);
      if (health.status !== 200) throw new Error(`/health answered ${health.status}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    stop: async (min) => {
      least = min;
      done = true;
      await loop;
      return latencies;
    },
  };
}

describe('many expensive patterns in one schema', () => {
  it('three such requests are refused with a 400 at once, and /health keeps answering all through', async () => {
    // Warm the connection and the route outside the measured polls.
    await (await fetch(`${rest.url}/health`)).arrayBuffer();
    const poller = pollHealth(rest.url);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const responses = await Promise.all(
      [0, 1, 2].map((variant) =>
        fetch(`${rest.url}/v1/agents/echo/run`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ prompt: 'x', format: 'json', schema: volumeSchema(50, variant) }),
        }),
      ),
    );
    const latencies = await poller.stop(5);
    // Unfixed, each schema's compile holds the event loop for 1 to 3 s. Refused before compiling, the
    // server's work is under a millisecond (test/schema-budget.test.ts in @agent/schema bounds its
    // CPU time at 100 ms); the client polls from this same process on a shared 2-core machine,
    // whose scheduling alone has added 200 ms to a poll, so the bound here is 500 ms.
    const shown = latencies.map((ms) => ms.toFixed(0)).join(' ');
    expect(Math.max(...latencies), `/health latencies (ms): ${shown}`).toBeLessThan(500);
    for (const response of responses) {
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { type: string; message: string } };
      expect(body.error.type).toBe('bad_request');
      expect(body.error.message).toMatch(
        /^"schema" is not a usable JSON Schema: \/allOf\/0\/pattern: pattern "\^\(a\|aa\)\{1,\d+\}\$" would compile to about [\d,]+ RE2 instructions, more than the limit of [\d,]+ per pattern/,
      );
    }
    expect(agents.model.requests).toHaveLength(0);
  });

  it('OpenAI response_format with more patterns than allowed: 400 invalid_request_error saying the limit', async () => {
    // Cheap patterns, but too many of them: each one is compiled code and an RE2 program.
    const schema = { allOf: Array.from({ length: 300 }, (_, i) => ({ pattern: `^a${i}$` })) };
    const client = new OpenAI({ baseURL: `${openai.url}/v1`, apiKey: TOKEN, maxRetries: 0 });
    await expect(
      client.chat.completions.create({
        model: 'echo',
        messages: [{ role: 'user', content: 'x' }],
        response_format: { type: 'json_schema', json_schema: { name: 'a', schema } },
      }),
    ).rejects.toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      message: expect.stringContaining(
        'response_format.json_schema.schema is not a usable JSON Schema: the schema has 300 patterns, more than the limit of 256',
      ),
    });
    expect(agents.model.requests).toHaveLength(0);
  });
});

/** A schema of `count` plain string properties (no patterns): ~2,370 of them is the 64 KB size limit. */
function plainSchema(count: number, variant: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) properties[`v${variant}_${i}`] = { type: 'string' };
  return { type: 'object', properties };
}

/**
 * Polls /health from a child process (so this process's own event loop is not what is
 * measured) until it reads a line on stdin; prints the latencies in ms as JSON.
 */
function pollHealthElsewhere(url: string): { ready: Promise<void>; stop: () => Promise<number[]> } {
  const script = `
    let done = false; const latencies = [];
    process.stdin.on('data', () => { done = true; });
    (async () => {
      // The first fetch loads the HTTP client: not part of what is measured.
      await (await fetch(${JSON.stringify(`${url}/health`)})).arrayBuffer();
      process.stdout.write('ready\\n');
      while (!done || latencies.length < 5) {
        const started = performance.now();
        const response = await fetch(${JSON.stringify(`${url}/health`)});
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error('/health answered ' + response.status);
        latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      process.stdout.write(JSON.stringify(latencies) + '\\n');
      process.exit(0);
    })();`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith('ready\n')) markReady();
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    ready,
    stop: async () => {
      child.stdin.end('stop\n');
      await exited;
      return JSON.parse(out.slice('ready\n'.length)) as number[];
    },
  };
}

/** Three size-limit schemas (new variants, so none is in the compiled cache) run while /health is polled. */
async function measureThreeRequests(firstVariant: number) {
  const schemas = [0, 1, 2].map((offset) => plainSchema(2_300, firstVariant + offset));
  const poller = pollHealthElsewhere(rest.url);
  await poller.ready;
  await new Promise((resolve) => setTimeout(resolve, 50));
  const responses = await Promise.all(
    schemas.map((schema) =>
      fetch(`${rest.url}/v1/agents/echo/run`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ prompt: 'x', format: 'json', schema }),
      }),
    ),
  );
  return { latencies: await poller.stop(), responses };
}

describe('a plain schema at the size limit', () => {
  it('is compiled off the event loop: /health keeps answering while three such requests run', async () => {
    expect(JSON.stringify(plainSchema(2_300, 0)).length).toBeGreaterThan(60_000);
    // A first such request, not measured, warms the code paths (JIT of the shape checks, the
    // worker thread): cold, the three requests' shape checks alone have held the loop ~300 ms.
    const warm = await fetch(`${rest.url}/v1/agents/echo/run`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ prompt: 'x', format: 'json', schema: plainSchema(2_300, 99) }),
    });
    await warm.arrayBuffer();
    // Unfixed, each schema's compile holds the event loop 0.5 to 2 s (1,075, 662 and 612 ms in a
    // row here, on the shared 2-core machine at load 8.5). In the worker thread, the event loop
    // only walks the schema once and loads the generated code from V8's code cache: the worst
    // poll was 63 to 78 ms at load 2 to 3. 250 ms leaves room for a machine running the suite;
    // a machine so busy that one round still crosses it (304 ms seen at load 12) gets a second
    // round with new schemas, which unfixed code fails as surely as the first.
    let round = await measureThreeRequests(0);
    if (Math.max(...round.latencies) >= 250) {
      for (const response of round.responses) await response.arrayBuffer();
      round = await measureThreeRequests(3);
    }
    const shown = round.latencies.map((ms) => ms.toFixed(0)).join(' ');
    expect(Math.max(...round.latencies), `/health latencies (ms): ${shown}`).toBeLessThan(250);
    for (const response of round.responses) {
      const body = (await response.json()) as { sessionId?: string };
      // Admitted: the schema is valid and a session ran (its report need not match the schema:
      // a failed run is a 500 that keeps the run body, never the 400 of a refused schema).
      expect(response.status, JSON.stringify(body).slice(0, 300)).not.toBe(400);
      expect(body.sessionId, JSON.stringify(body).slice(0, 300)).toEqual(expect.any(String));
    }
  }, 45_000);
});
