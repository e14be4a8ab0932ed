import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentRunner } from '@agent/runtime';
import {
  type ModelServer,
  type RecordedRequest,
  type ScriptedAnswer,
  startModelServer,
} from '@agent/testkit';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createAnthropicHeadend,
  createCatalog,
  createMcpHeadend,
  createOpenAiHeadend,
  createRestHeadend,
  type ServedHeadend,
  serve,
} from '../src/index.js';
import { finalReport, served } from './helpers/agents.js';

// Schemas a client sends are checked before any model call; the one the model's report is
// validated against runs its `pattern` on RE2, so nothing a client sends can stall the server.
// Real agents (`@agent/runtime`) whose model is the testkit server, on loopback.

const TOKEN = 'schema-token';
const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const CATASTROPHIC = { type: 'object', properties: { word: { type: 'string', pattern: '^(a+)+$' } } };
// A backtracking engine never finishes `^(a+)+$` against this; RE2 answers in milliseconds.
const MISMATCH = `${'a'.repeat(20_000)}!`;

let model: ModelServer;
let dir: string;
let close: () => Promise<void>;
let rest: ServedHeadend;
let openai: ServedHeadend;
let anthropic: ServedHeadend;
let mcp: ServedHeadend;

/** The model's first report misses the pattern with a long word; told why, it sends a matching one. */
function answer(request: RecordedRequest): ScriptedAnswer {
  const told = request.messages.some((m) => m.role === 'user' && m.content.includes('must match pattern'));
  const word = told ? 'aaaa' : MISMATCH;
  const payload = JSON.stringify({ word });
  const [open, close] = finalReport('|', 'json').split('|') as [string, string];
  // The payload streams in ten slow pieces, so the run lasts long enough to poll /health through it.
  const size = Math.ceil(payload.length / 10);
  const pieces = Array.from({ length: 10 }, (_, i) => payload.slice(i * size, (i + 1) * size));
  return { text: [open, ...pieces, close], tokenDelayMs: 40, usage: { inputTokens: 100, outputTokens: 10 } };
}

beforeAll(async () => {
  model = await startModelServer({ handler: answer });
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'headends-schema-')));
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({ providers: { local: { type: 'openai-compatible', baseURL: `${model.url}/v1` } } }),
  );
  const file = join(dir, 'shaper.ai');
  writeFileSync(
    file,
    '---\ndescription: Answers in JSON.\nmodels: [local/test-model]\ncontextWindow: 32768\noutput: json\n---\nYou shape answers.\n',
  );
  const runner = await createAgentRunner(file, {
    cwd: dir,
    env: {},
    userConfigDir: join(dir, '.none'),
    systemConfigDir: join(dir, '.none'),
  });
  const catalog = createCatalog([served(runner)]);
  const options = { catalog, tokens: [TOKEN], bodyLimitBytes: 4 * 1024 * 1024 };
  rest = await serve(createRestHeadend(options));
  openai = await serve(createOpenAiHeadend(options));
  anthropic = await serve(createAnthropicHeadend(options));
  mcp = await serve(createMcpHeadend(options));
  close = async () => {
    await Promise.all([rest.close(), openai.close(), anthropic.close(), mcp.close()]);
    await runner.close();
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  };
});

afterAll(async () => {
  await close();
});

let requestsBefore = 0;
beforeEach(() => {
  requestsBefore = model.requests.length;
});
const modelCalls = () => model.requests.length - requestsBefore;

function nested(levels: number): string {
  return `${'{"not":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
}

/** About `bytes` of schema as JSON text: many described string properties. */
function bigSchema(bytes: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const property = { type: 'string', description: `Field number ${i} of a schema far too large to send.` };
    properties[`field_${i}`] = property;
    size += JSON.stringify(property).length + 12;
  }
  return { type: 'object', properties };
}

function runRest(bodyText: string) {
  return fetch(`${rest.url}/v1/agents/shaper/run`, { method: 'POST', headers: auth, body: bodyText });
}

describe('REST: schemas from the request', () => {
  it('a catastrophic pattern never stalls the server: /health keeps answering all through the run', async () => {
    // One request first: the connection and the route are set up outside the measured polls.
    await (await fetch(`${rest.url}/health`)).json();
    const latencies: number[] = [];
    let done = false;
    const poll = (async () => {
      while (!done) {
        const started = performance.now();
        const health = await fetch(`${rest.url}/health`);
        await health.json();
        latencies.push(performance.now() - started);
        expect(health.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const response = await runRest(JSON.stringify({ prompt: 'one word', schema: CATASTROPHIC }));
    done = true;
    await poll;
    const body = (await response.json()) as { success: boolean; finalReport: { content_json: unknown } };
    expect(response.status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.finalReport.content_json).toEqual({ word: 'aaaa' });
    // The first report (20,001 characters against the pattern) was checked and sent back.
    expect(modelCalls()).toBe(2);
    expect(latencies.length).toBeGreaterThanOrEqual(5);
    // Not a speed check: a backtracking match of 20,001 characters would hold the event loop for
    // hours, so a poll that waits even two seconds (a loaded machine stays far below) means a stall.
    expect(Math.max(...latencies)).toBeLessThan(2000);
  });

  it('{"type":"banana"}: 400 naming the problem, no model call', async () => {
    const response = await runRest(JSON.stringify({ prompt: 'x', schema: { type: 'banana' } }));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('bad_request');
    expect(body.error.message).toMatch(
      /^"schema" is not a usable JSON Schema: \/type: must be one of "array", /,
    );
    expect(body.error.message).toContain('(got "banana")');
    expect(modelCalls()).toBe(0);
  });

  it('a 20,000-level schema: 400 (not 500), the server stays up, no model call', async () => {
    const response = await runRest(`{"prompt":"x","schema":${nested(20_000)}}`);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(
      /^"schema" is not a usable JSON Schema: (\/not)+…: nests deeper than the limit of 64 levels$/,
    );
    expect((await fetch(`${rest.url}/health`)).status).toBe(200);
    expect(modelCalls()).toBe(0);
  });

  it('a ~1 MB schema with a 32k context window: 400 saying it does not fit, no model call', async () => {
    const response = await runRest(JSON.stringify({ prompt: 'x', schema: bigSchema(1_000_000) }));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(
      /^the output schema \(about \d+ tokens .*\) and the prompt \(about \d+ tokens\) do not fit the context window of local\/test-model: 32768 tokens/,
    );
    expect(modelCalls()).toBe(0);
  });

  it('a request body nested 1,000,000 levels deep is a 400, not a 500', async () => {
    const response = await runRest(`{"prompt":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}`);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toBe('"prompt" must be a non-empty string');
  });
});

describe('OpenAI, Anthropic and MCP faces', () => {
  const client = () => new OpenAI({ baseURL: `${openai.url}/v1`, apiKey: TOKEN, maxRetries: 0 });
  const create = (schema: Record<string, unknown>) =>
    client().chat.completions.create({
      model: 'shaper',
      messages: [{ role: 'user', content: 'x' }],
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } },
    });

  it('OpenAI response_format: banana and a too-large schema are 400 invalid_request_error, no model call', async () => {
    await expect(create({ type: 'banana' })).rejects.toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      message: expect.stringContaining(
        'response_format.json_schema.schema is not a usable JSON Schema: /type',
      ),
    });
    await expect(create(bigSchema(1_000_000))).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('do not fit the context window of local/test-model: 32768 tokens'),
    });
    expect(modelCalls()).toBe(0);
  });

  it('OpenAI response_format 20,000 levels deep: 400, no model call', async () => {
    const response = await fetch(`${openai.url}/v1/chat/completions`, {
      method: 'POST',
      headers: auth,
      body: `{"model":"shaper","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"name":"a","schema":${nested(20_000)}}}}`,
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('nests deeper than the limit of 64 levels');
    expect(modelCalls()).toBe(0);
  });

  it('Anthropic output_format: banana, 20,000 levels and a too-large schema are 400, no model call', async () => {
    const post = (schemaText: string) =>
      fetch(`${anthropic.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': TOKEN, 'content-type': 'application/json' },
        body: `{"model":"shaper","max_tokens":100,"messages":[{"role":"user","content":"x"}],"output_format":{"type":"json_schema","schema":${schemaText}}}`,
      });
    const messages: string[] = [];
    for (const schemaText of ['{"type":"banana"}', nested(20_000), JSON.stringify(bigSchema(1_000_000))]) {
      const response = await post(schemaText);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { type: string; error: { type: string; message: string } };
      expect(body.error.type).toBe('invalid_request_error');
      messages.push(body.error.message);
    }
    expect(messages[0]).toMatch(/^output_format\.schema is not a usable JSON Schema: \/type: must be one of/);
    expect(messages[1]).toContain('nests deeper than the limit of 64 levels');
    expect(messages[2]).toContain('do not fit the context window of local/test-model');
    expect(modelCalls()).toBe(0);
  });

  it('request bodies nested 1,000,000 levels deep never cause a 500; as a schema they are a 400', async () => {
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    const anthropicHeaders = { 'x-api-key': TOKEN, 'content-type': 'application/json' };
    const post = async (url: string, body: string, headers: Record<string, string> = auth) =>
      (await fetch(url, { method: 'POST', headers, body })).status;
    const chat = `${openai.url}/v1/chat/completions`;
    const messages = `${anthropic.url}/v1/messages`;
    expect([
      await post(chat, `{"model":"shaper","messages":${deep}}`),
      await post(
        chat,
        `{"model":"shaper","messages":[{"role":"user","content":"x"}],"response_format":${deep}}`,
      ),
      await post(
        chat,
        `{"model":"shaper","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"schema":${deep}}}}`,
      ),
      await post(`${rest.url}/v1/agents/shaper/run`, `{"prompt":"x","schema":${deep}}`),
    ]).toEqual([400, 400, 400, 400]);
    expect(modelCalls()).toBe(0);
    // Content parts that are not text are skipped (the prompt is what is left): no 500 either.
    const skipped = [
      await post(chat, `{"model":"shaper","messages":[{"role":"user","content":${deep}}]}`),
      await post(
        messages,
        `{"model":"shaper","max_tokens":10,"system":${deep},"messages":[{"role":"user","content":"x"}]}`,
        anthropicHeaders,
      ),
    ];
    expect(skipped.filter((status) => status >= 500)).toEqual([]);
  });

  it('MCP tool arguments: a bad schema is a tool error naming the problem, no model call', async () => {
    const mcpClient = new Client({ name: 'schema-test', version: '1.0.0' });
    await mcpClient.connect(
      new StreamableHTTPClientTransport(new URL(`${mcp.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    try {
      const texts: string[] = [];
      for (const schema of [{ type: 'banana' }, bigSchema(1_000_000)]) {
        const result = await mcpClient.callTool({ name: 'shaper', arguments: { prompt: 'x', schema } });
        expect(result.isError).toBe(true);
        texts.push((result.content as { text: string }[])[0]?.text ?? '');
      }
      expect(texts[0]).toMatch(/^"schema" is not a usable JSON Schema: \/type: must be one of/);
      expect(texts[1]).toContain('do not fit the context window of local/test-model');
      expect(modelCalls()).toBe(0);
    } finally {
      await mcpClient.close();
    }
  });
});
