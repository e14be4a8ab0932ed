import { createModelClient, type ModelClientConfig } from '@agent/providers';
import { finalReport, type ModelServer, startModelServer } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { runAgent } from '../../src/index.js';
import { memoryTools } from '../helpers/memory-tools.js';

// Issue 24 end to end: sessions whose turns move between provider types, through the official
// SDKs, against the testkit server in strict mode (it refuses what each real API refuses).
const NONCE = 'fb0fb0fb';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Target = Pick<ModelClientConfig, 'type' | 'model'> & Partial<ModelClientConfig> & { path?: string };

function target(url: string, spec: Target) {
  const root = `${url}${spec.path ?? ''}`;
  const { path: _, ...config } = spec;
  return {
    client: createModelClient({
      provider: spec.provider ?? spec.type,
      apiKey: 'sk-test-secret-key',
      baseURL: spec.type === 'anthropic' ? root : `${root}/v1`,
      ...config,
    }),
  };
}

const weather = () =>
  memoryTools('wx', {
    weather: {
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      handler: (args) => `${String(args.city)}: 25C`,
    },
  });
const lookup = (city: string) => ({ toolCalls: [{ name: 'weather', arguments: { city } }] });
const overloaded = { error: { kind: 'server' as const, status: 529 } };
const down = { error: { kind: 'server' as const } };

test('turns that move between four APIs keep every request valid for the API that gets it', async () => {
  server = await startModelServer({
    strict: true,
    steps: [
      // Turn 1: Anthropic is overloaded, OpenAI Chat (a reasoning model) calls a tool.
      overloaded,
      lookup('Athens'),
      // Turn 2: Anthropic gets a history whose last tool turn has no signed thinking.
      { reasoning: { text: 'One more city.', signature: 'sig-1' }, ...lookup('Rome') },
      // Turn 3: on to the Responses API.
      overloaded,
      down,
      { reasoning: { text: 'And Oslo.', signature: 'encrypted-1' }, ...lookup('Oslo') },
      // Turn 4: only Mistral answers.
      overloaded,
      down,
      down,
      finalReport('Athens, Rome and Oslo: 25C.'),
    ],
  });
  const url = server.url;
  const result = await runAgent({
    internal: { nonce: NONCE, sleep: async () => {} },
    models: [
      target(url, { type: 'anthropic', model: 'claude-sonnet-4-5' }),
      target(url, { type: 'openai', model: 'gpt-5-mini' }),
      target(url, { type: 'openai-responses', model: 'gpt-5.1' }),
      target(url, {
        type: 'openai-compatible',
        provider: 'mistral',
        model: 'mistral-large-latest',
        path: '/mistral',
        streamUsage: false,
      }),
    ],
    tools: [weather()],
    prompt: 'Weather in Athens, Rome and Oslo?',
    // One session setting for every target: sampling, a small reasoning effort.
    temperature: 0.3,
    reasoning: { effort: 'minimal' },
    maxRetries: 4,
  });
  expect(server.requests.map((request) => request.rejected?.message)).toEqual(
    server.requests.map(() => undefined),
  );
  expect(result.success).toBe(true);
  expect(result.finalReport?.content).toBe('Athens, Rome and Oslo: 25C.');
  expect(server.requests.map((request) => request.flavour ?? request.api)).toEqual([
    'anthropic',
    'openai-chat',
    'anthropic',
    'anthropic',
    'openai-chat',
    'openai-responses',
    'anthropic',
    'openai-chat',
    'openai-responses',
    'mistral',
  ]);
  // What the clients changed is in the session log.
  const notices = result.logs.filter((log) => log.severity === 'VRB').map((log) => log.message);
  expect(notices).toContain(
    'attempt 1: thinking is off for this call: the last tool call was made without signed thinking (by another model), which Anthropic rejects while thinking is on',
  );
  expect(notices).toContain('attempt 2: temperature not sent (a reasoning model accepts only the default)');
  expect(notices).toContain(
    'attempt 3: reasoning effort minimal sent as low: the model accepts none, low, medium, high',
  );
});

test('a target that rejects the request as invalid is called once; the other targets get the turn', async () => {
  server = await startModelServer({
    strict: true,
    steps: [down, finalReport('from the second target')],
  });
  const result = await runAgent({
    internal: { nonce: NONCE, sleep: async () => {} },
    models: [
      // A config that forces a temperature on a reasoning model: OpenAI answers 400.
      target(server.url, { type: 'openai', model: 'o3', omitSampling: [] }),
      target(server.url, { type: 'anthropic', model: 'claude-sonnet-4-5' }),
    ],
    prompt: 'hello',
    temperature: 0.3,
  });
  expect(result.success).toBe(true);
  expect(result.finalReport?.content).toBe('from the second target');
  // Anthropic fails once and is tried again; the invalid request is not sent a second time.
  expect(server.requests.map((request) => [request.api, request.rejected?.status])).toEqual([
    ['openai-chat', 400],
    ['anthropic', undefined],
    ['anthropic', undefined],
  ]);
});

test('with no other target, the run ends after that one call, with the provider message', async () => {
  server = await startModelServer({ strict: true, steps: [] });
  const result = await runAgent({
    internal: { nonce: NONCE },
    models: [target(server.url, { type: 'openai', model: 'o3', omitSampling: [] })],
    prompt: 'hello',
    temperature: 0.3,
  });
  expect(result.success).toBe(false);
  expect(result.exitCode).toBe('EXIT-MODEL-ERROR');
  expect(server.requests).toHaveLength(1);
  const failure = result.logs.find((log) => log.severity === 'WRN' && log.remoteIdentifier === 'openai:o3');
  expect(failure?.message).toContain(
    "request rejected (HTTP 400): Unsupported value: 'temperature' does not support 0.3 with this model.",
  );
});
