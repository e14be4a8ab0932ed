// Seed 002: "when format is json, a schema object is required". A request's format and schema
// are checked against that rule before admission, on every face that takes them.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMcpHeadend,
  createOpenAiHeadend,
  createRestHeadend,
  type ServedHeadend,
  serve,
} from '../src/index.js';
import { finalReport, startAgents, type TestAgents } from './helpers/agents.js';

const TOKEN = 'formats-token';
const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const SCHEMA = { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } };

let agents: TestAgents;
let rest: ServedHeadend;
let openai: ServedHeadend;
let mcp: ServedHeadend;

beforeAll(async () => {
  // The model answers every request with a JSON report: a run asked for json can succeed.
  agents = await startAgents(() => ({ text: [finalReport('{"n": 7}', 'json')] }));
  const options = { catalog: agents.catalog, tokens: [TOKEN] };
  rest = await serve(createRestHeadend(options));
  openai = await serve(createOpenAiHeadend(options));
  mcp = await serve(createMcpHeadend(options));
});

afterAll(async () => {
  await Promise.all([rest?.close(), openai?.close(), mcp?.close()]);
  await agents?.close();
});

async function restRun(fields: Record<string, unknown>) {
  const response = await fetch(`${rest.url}/v1/agents/echo/run`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ prompt: 'shape it', ...fields }),
  });
  const body = (await response.json()) as {
    error: { message: string };
    success?: boolean;
    finalReport?: { format: string; content_json?: unknown };
  };
  return { status: response.status, body };
}

describe('REST', () => {
  it('format json with no schema in the request or the agent file is a 400 naming the rule', async () => {
    const before = agents.model.requests.length;
    const { status, body } = await restRun({ format: 'json' });
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/"format" json needs a JSON Schema/);
    expect(body.error.message).toMatch(/"schema"/);
    expect(agents.model.requests.length).toBe(before);
  });

  it('a schema sent with a text format is a 400, not ignored', async () => {
    const before = agents.model.requests.length;
    const { status, body } = await restRun({ format: 'markdown', schema: SCHEMA });
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/"schema" is allowed only with "format" json, not markdown/);
    expect(agents.model.requests.length).toBe(before);
  });

  it('a schema without a format runs as format json with that schema', async () => {
    const { status, body } = await restRun({ schema: SCHEMA });
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.finalReport?.format).toBe('json');
    expect(body.finalReport?.content_json).toEqual({ n: 7 });
  });
});

describe('OpenAI', () => {
  it('response_format json_object for an agent without a schema is a 400 naming the rule', async () => {
    const response = await fetch(`${openai.url}/v1/chat/completions`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        model: 'echo',
        messages: [{ role: 'user', content: 'shape it' }],
        response_format: { type: 'json_object' },
      }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/json(_object)? needs a JSON Schema/);
    expect(body.error.message).toMatch(/response_format\.json_schema\.schema/);
  });
});

describe('MCP', () => {
  async function call(args: Record<string, unknown>) {
    const client = new Client({ name: 'formats-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${mcp.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    try {
      const result = await client.callTool({ name: 'echo', arguments: { prompt: 'shape it', ...args } });
      return { isError: result.isError, text: (result.content as { text: string }[])[0]!.text };
    } finally {
      await client.close();
    }
  }

  it('format json with no schema is an error result naming the rule', async () => {
    const result = await call({ format: 'json' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/"format" json needs a JSON Schema/);
  });

  it('a schema with a text format is an error result', async () => {
    const result = await call({ format: 'text', schema: SCHEMA });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/"schema" is allowed only with "format" json, not text/);
  });
});
