// Checks the README the way a reader would use it: every ts block typechecks under strict
// TypeScript against the packages its install lines name, and the examples run as written: the
// first against the testkit's scripted server in OpenAI's place (through OPENAI_BASE_URL).
import {
  finalReport,
  type RecordedRequest,
  type ScriptedAnswer,
  startModelServer,
  toolCall,
} from '@agent/testkit';
import { afterEach, expect, it, vi } from 'vitest';
import {
  checkReadme,
  commentedOutputs,
  type ModuleLoaders,
  readmeBlock,
  runExample,
} from '../../../tooling/vitest/readme-example.js';

const README = new URL('../README.md', import.meta.url);
const modules: ModuleLoaders = {
  '@agent/core': () => import('@agent/core'),
  '@agent/providers': () => import('@agent/providers'),
  '@agent/testkit': () => import('@agent/testkit'),
  zod: () => import('zod'),
};

afterEach(() => vi.unstubAllEnvs());

it('every ts block of the README typechecks (strict), and its install lines name every package imported', () => {
  expect(checkReadme(README)).toEqual([]);
}, 120_000);

it('the example runs against a real OpenAI-compatible server: the tool is called, the JSON comes back', async () => {
  // The model: call the tool, then answer with what the tool said.
  const server = await startModelServer({
    handler: (request: RecordedRequest): ScriptedAnswer => {
      const tool = request.messages.find((m) => m.role === 'tool');
      if (tool === undefined) return toolCall('get_weather', { city: 'Paris' });
      const { city, celsius } = JSON.parse(tool.content) as { city: string; celsius: number };
      return finalReport({ city, celsius });
    },
  });
  try {
    vi.stubEnv('OPENAI_API_KEY', 'sk-readme-test');
    vi.stubEnv('OPENAI_BASE_URL', `${server.url}/v1`);
    const { code } = readmeBlock(README, { heading: '## Example' });
    const printed = await runExample(code, modules);
    expect(printed).toEqual(commentedOutputs(code));
    expect(server.requests.map((r) => `${r.route} ${r.model}`)).toEqual([
      'POST /v1/chat/completions gpt-4.1-mini',
      'POST /v1/chat/completions gpt-4.1-mini',
    ]);
    expect(server.requests[1]?.messages.find((m) => m.role === 'tool')?.content).toBe(
      '{"city":"Paris","celsius":18,"sky":"sunny"}',
    );
  } finally {
    await server.close();
  }
});

it('the testing example runs as written', async () => {
  const { code } = readmeBlock(README, { heading: '## Testing an agent' });
  expect(await runExample(code, modules)).toEqual(commentedOutputs(code));
});

it("the port of seed 002's minimal example runs as written: AIAgent.create, session.run()", async () => {
  const server = await startModelServer({ handler: () => finalReport('Hello!') });
  try {
    vi.stubEnv('OPENAI_API_KEY', 'sk-readme-test');
    vi.stubEnv('OPENAI_BASE_URL', `${server.url}/v1`);
    const { code } = readmeBlock(README, { heading: "## Porting from seed 002's `AIAgent`" });
    const printed = await runExample(code, modules);
    expect(printed).toEqual(commentedOutputs(code));
    expect(server.requests.map((r) => `${r.route} ${r.model}`)).toEqual([
      'POST /v1/chat/completions gpt-4o-mini',
    ]);
    expect(server.requests[0]?.messages[0]).toEqual({ role: 'system', content: 'You are helpful.' });
  } finally {
    await server.close();
  }
});
