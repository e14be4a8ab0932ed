import { createModelClient, type ModelClientConfig } from '@agent/providers';
import { finalReport, type ModelServer, type ScriptStep, startModelServer } from '@agent/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { type AgentSessionConfig, runAgent } from '../../src/index.js';
import { memoryTools } from '../helpers/memory-tools.js';

// Issue 20: the session's own tools are offered only when useful. Over real HTTP, through the
// official SDKs, against the testkit server: what each model is offered, and what still runs.
const NONCE = '1a7e1a7e';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const weather = () =>
  memoryTools('wx', {
    weather: {
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      handler: (args) => `${String(args.city)}: 25C`,
    },
  });

type Client = Pick<ModelClientConfig, 'type' | 'model'> & Partial<ModelClientConfig>;

// A listener, as an application that shows progress passes: `agent__task_status` is offered to it.
const listening = { onEvent: () => {} } satisfies Partial<AgentSessionConfig>;

async function session(client: Client, steps: ScriptStep[], extra: Partial<AgentSessionConfig> = {}) {
  server = await startModelServer({ strict: true, steps });
  const tools = weather();
  const result = await runAgent({
    internal: { nonce: NONCE, sleep: async () => {} },
    model: createModelClient({
      provider: client.type,
      apiKey: 'sk-test-secret-key',
      baseURL: client.type === 'anthropic' ? server.url : `${server.url}/v1`,
      ...client,
    }),
    tools: [tools],
    prompt: 'Weather in Athens and Rome?',
    ...extra,
  });
  const offered = server.requests.map((request) => request.tools.map((tool) => tool.name));
  return { result, offered, tools, requests: server.requests };
}

const openai: Client = { type: 'openai', model: 'gpt-4.1-mini' };
const compatible: Client = { type: 'openai-compatible', provider: 'local', model: 'qwen3-8b' };
const done = finalReport('Athens and Rome: 25C.');

describe('agent__batch is offered only to models without native parallel tool calls', () => {
  test.each([
    ['openai', openai],
    ['anthropic', { type: 'anthropic', model: 'claude-sonnet-4-5' } as Client],
    ['openai-responses', { type: 'openai-responses', model: 'gpt-4.1-mini' } as Client],
  ])('an %s model gets its tools and agent__task_status, not agent__batch', async (_name, client) => {
    const { result, offered } = await session(client, [done], listening);
    expect(result.success).toBe(true);
    expect(offered).toEqual([['weather', 'agent__task_status']]);
  });

  test('an OpenAI-compatible server (parallel calls unknown) gets agent__batch too', async () => {
    const { result, offered } = await session(compatible, [done], listening);
    expect(result.success).toBe(true);
    expect(offered).toEqual([['weather', 'agent__task_status', 'agent__batch']]);
  });

  test('a fallback list offers it when any of its models lacks native parallel calls', async () => {
    server = await startModelServer({ strict: true, steps: [done] });
    const make = (client: Client) =>
      createModelClient({ provider: client.type, apiKey: 'k', baseURL: `${server!.url}/v1`, ...client });
    const result = await runAgent({
      internal: { nonce: NONCE },
      models: [make(openai), make(compatible)],
      tools: [weather()],
      prompt: 'Weather?',
    });
    expect(result.success).toBe(true);
    expect(server.requests[0]!.tools.map((tool) => tool.name)).toContain('agent__batch');
  });

  test('a batch call sent anyway still runs its calls, and the model gets their results', async () => {
    const batch = {
      toolCalls: [
        {
          id: 'call_b',
          name: 'agent__batch',
          arguments: {
            calls: [
              { id: 'a', tool: 'weather', parameters: { city: 'Athens' } },
              { id: 'r', tool: 'weather', parameters: { city: 'Rome' } },
            ],
          },
        },
      ],
    };
    const { result, tools, requests } = await session(openai, [batch, done]);
    expect(result.success).toBe(true);
    expect(tools.calls.map((call) => call.arguments.city)).toEqual(['Athens', 'Rome']);
    const answer = requests[1]!.messages.find((m) => m.role === 'tool')?.content ?? '';
    expect(answer).toContain('Athens: 25C');
    expect(answer).toContain('Rome: 25C');
  });
});

describe('internalTools chooses each one', () => {
  test('{ batch: true } offers agent__batch to any model; { batch: false } to none', async () => {
    const on = await session(openai, [done], { ...listening, internalTools: { batch: true } });
    expect(on.offered[0]).toEqual(['weather', 'agent__task_status', 'agent__batch']);
    await server?.close();
    const off = await session(compatible, [done], { ...listening, internalTools: { batch: false } });
    expect(off.offered[0]).toEqual(['weather', 'agent__task_status']);
  });

  test('{ taskStatus: false } drops task status: a call to it is an unknown tool', async () => {
    const status = {
      toolCalls: [
        { id: 'call_s', name: 'agent__task_status', arguments: { status: 'in-progress', now: 'looking' } },
      ],
    };
    const { result, offered, requests } = await session(openai, [status, done], {
      ...listening,
      internalTools: { taskStatus: false },
    });
    expect(result.success).toBe(true);
    expect(offered[0]).toEqual(['weather']);
    const answer = requests[1]!.messages.find((m) => m.role === 'tool')?.content ?? '';
    expect(answer).toMatch(/unknown tool "agent__task_status"/);
  });

  test.each([
    [{ batch: 'sometimes' }, "batch: true, false or 'auto'"],
    [{ taskStatus: 'yes' }, "taskStatus: true, false or 'auto'"],
    [{ bacth: true }, 'unknown key bacth'],
    ['on', "true, false or { taskStatus?: boolean | 'auto', batch?: boolean | 'auto' }"],
  ])('internalTools %j is a configuration error saying what is allowed', async (setting, allowed) => {
    const { result, requests } = await session(openai, [done], {
      internalTools: setting as AgentSessionConfig['internalTools'],
    });
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.error).toContain('internalTools');
    expect(result.error).toContain(allowed);
    expect(requests).toHaveLength(0);
  });
});

describe('agent__task_status is offered only to a run whose progress someone reads', () => {
  const status = {
    toolCalls: [
      { id: 'call_s', name: 'agent__task_status', arguments: { status: 'in-progress', now: 'looking' } },
    ],
  };

  test('a run without an event listener is not offered it, and its requests are that much smaller', async () => {
    const quiet = await session(openai, [done]);
    expect(quiet.offered).toEqual([['weather']]);
    const quietBytes = JSON.stringify(quiet.requests[0]!.tools).length;
    await server?.close();
    const watched = await session(openai, [done], listening);
    expect(watched.offered).toEqual([['weather', 'agent__task_status']]);
    expect(JSON.stringify(watched.requests[0]!.tools).length).toBeGreaterThan(quietBytes + 300);
  });

  test('a status call sent anyway is still answered, not refused as an unknown tool', async () => {
    const { result, offered, requests } = await session(openai, [status, done]);
    expect(result.success).toBe(true);
    expect(offered[0]).toEqual(['weather']);
    const answer = requests[1]!.messages.find((m) => m.role === 'tool')?.content ?? '';
    expect(answer).toBe('Status recorded.');
  });

  test('a listener gets the progress the model reports', async () => {
    const updates: unknown[] = [];
    const { result } = await session(openai, [status, done], {
      onEvent: (event) => {
        if (event.type === 'progress') updates.push(event.event);
      },
    });
    expect(result.success).toBe(true);
    expect(updates).toEqual([
      expect.objectContaining({ type: 'agent_update', status: 'in-progress', now: 'looking' }),
    ]);
  });

  test('{ taskStatus: true } offers it without a listener', async () => {
    const { offered } = await session(openai, [done], { internalTools: { taskStatus: true } });
    expect(offered[0]).toEqual(['weather', 'agent__task_status']);
  });
});
