// The program of docs/comparison.md in each framework, run as written against the testkit's
// scripted server in OpenAI's place (OPENAI_BASE_URL): each must call the tool and print the
// JSON answer. The doc must show each program as it is here, and the line counts it states.
import { readFileSync } from 'node:fs';
import {
  finalReport,
  type ModelServer,
  type RecordedRequest,
  type ScriptedAnswer,
  sessionNonce,
  startModelServer,
  toolCall,
} from '@agent/testkit';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  commentedOutputs,
  type ModuleLoaders,
  readmeBlock,
  runExample,
} from '../../tooling/vitest/readme-example.js';

const DOC = new URL('../../docs/comparison.md', import.meta.url);
const README = new URL('../../packages/core/README.md', import.meta.url);

const modules: ModuleLoaders = {
  '@agent/core': () => import('@agent/core'),
  '@agent/providers': () => import('@agent/providers'),
  '@openai/agents': () => import('@openai/agents'),
  ai: () => import('ai'),
  '@ai-sdk/openai': () => import('@ai-sdk/openai'),
  zod: () => import('zod'),
};

const programs = [
  { file: 'agent-core.ts', api: 'openai-chat' },
  { file: 'openai-agents.ts', api: 'openai-responses' },
  { file: 'ai-sdk.ts', api: 'openai-responses' },
] as const;

function program(file: string): string {
  return readFileSync(new URL(`../comparison/${file}`, import.meta.url), 'utf8');
}

/** Lines that are not blank. */
function lineCount(code: string): number {
  return code.split('\n').filter((line) => line.trim() !== '').length;
}

/** The model: call the tool, then answer with what it said (in the FINAL tag when the session asked for one). */
function weatherModel(request: RecordedRequest): ScriptedAnswer {
  const result = request.messages.find((m) => m.role === 'tool');
  if (result === undefined) return toolCall('get_weather', { city: 'Paris' });
  const { city, celsius } = JSON.parse(result.content) as { city: string; celsius: number };
  return sessionNonce(request.messages) === undefined
    ? { text: JSON.stringify({ city, celsius }) }
    : finalReport({ city, celsius });
}

let server: ModelServer;
beforeEach(async () => {
  server = await startModelServer({ handler: weatherModel });
  vi.stubEnv('OPENAI_API_KEY', 'sk-comparison-test');
  vi.stubEnv('OPENAI_BASE_URL', `${server.url}/v1`);
  vi.stubEnv('OPENAI_AGENTS_DISABLE_TRACING', '1');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server.close();
});

describe.each(programs)('$file', ({ file, api }) => {
  test('runs against the server: one tool call, then the JSON answer', async () => {
    const code = program(file);
    const printed = await runExample(code, modules);
    expect(printed).toEqual(["{ city: 'Paris', celsius: 18 }"]);
    expect(printed).toEqual(commentedOutputs(code));
    expect(server.requests.map((r) => `${r.api} ${r.model}`)).toEqual([
      `${api} gpt-4.1-mini`,
      `${api} gpt-4.1-mini`,
    ]);
    const toolResult = server.requests[1]?.messages.find((m) => m.role === 'tool')?.content;
    expect(JSON.parse(toolResult ?? 'null')).toEqual({ city: 'Paris', celsius: 18, sky: 'sunny' });
  });

  test('docs/comparison.md shows it as it is, with its line count', () => {
    const code = program(file);
    const doc = readFileSync(DOC, 'utf8');
    expect(doc).toContain(`\`\`\`ts\n${code}\`\`\``);
    expect(doc).toMatch(new RegExp(`\\| \`comparison/${file}\` \\| ${lineCount(code)} \\|`));
  });
});

test('the @agent/core program is the one in the core README', () => {
  const { code } = readmeBlock(README, { heading: '## Example' });
  expect(`${code}\n`).toBe(program('agent-core.ts'));
});
