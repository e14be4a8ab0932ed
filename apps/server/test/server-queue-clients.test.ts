import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedRequest, ScriptedAnswer } from '@agent/testkit';
import Anthropic from '@anthropic-ai/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { type AgentDir, finalReport, lastUserText } from './helpers.js';
import { useQueueFleet } from './queue-harness.js';

const { fleet, jobsLeft } = useQueueFleet();

const echo = (request: RecordedRequest): ScriptedAnswer => ({
  reasoning: { text: 'Hmm.' },
  text: finalReport(`Echo: ${lastUserText(request.messages)}`),
});

/**
 * Only the workers reach the model: their `--agent-config` names the scripted model server, while
 * the face's agent.json points at a port where nothing listens. An answer proves a worker ran it.
 */
function workersOnly(dir: AgentDir): void {
  writeFileSync(join(dir.dir, 'worker.json'), readFileSync(join(dir.dir, 'agent.json')));
  writeFileSync(
    join(dir.dir, 'agent.json'),
    JSON.stringify({ providers: { local: { type: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1' } } }),
  );
}

/** As `workersOnly`, with guardrails in the echo agent file: an input word and an output pattern. */
function guardedWorkersOnly(dir: AgentDir): void {
  workersOnly(dir);
  writeFileSync(
    dir.files[0]!,
    [
      '---',
      'description: The echo agent.',
      'models: [local/m]',
      'guardrails:',
      '  - { name: no-forbidden, on: input, kind: words, blocked: [forbidden] }',
      '  - { name: no-secret, on: output, kind: regex, pattern: "SECRET-[0-9]+" }',
      '---',
      'You are echo.',
      '',
    ].join('\n'),
  );
}

async function queueFace(flags: string[], prepare: (dir: AgentDir) => void = workersOnly) {
  const started = await fleet(0, { handler: echo, prepare, faceArgs: flags, headends: 2 });
  await started.spawnWorker(['--agent-config', join(started.dir.dir, 'worker.json')]);
  return started;
}

describe('the OpenAI, Anthropic and MCP faces on a queue', () => {
  it('OpenAI chat completions go through the queue to a worker, streaming and not', async () => {
    const { face, dir, name } = await queueFace(['--openai', '0']);
    const client = new OpenAI({ baseURL: face.urls.openai, apiKey: 'none', maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: 'echo',
      messages: [{ role: 'user', content: 'one' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Echo: one');
    const stream = await client.chat.completions.create({
      model: 'echo',
      messages: [{ role: 'user', content: 'two' }],
      stream: true,
    });
    const deltas: string[] = [];
    for await (const chunk of stream) deltas.push(chunk.choices[0]?.delta.content ?? '');
    expect(deltas.join('')).toBe('Echo: two');
    expect(dir.model.requests.map((request) => lastUserText(request.messages))).toEqual(['one', 'two']);
    expect(await jobsLeft(name)).toMatchObject({ waiting: 0, active: 0, failed: 0 });
  }, 120_000);

  it('Anthropic messages go through the queue to a worker, streaming and not', async () => {
    const { face, dir } = await queueFace(['--anthropic', '0']);
    const client = new Anthropic({ baseURL: face.urls.anthropic!, apiKey: 'none', maxRetries: 0 });
    const message = await client.messages.create({
      model: 'echo',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'three' }],
    });
    expect(message.content.at(-1)).toMatchObject({ type: 'text', text: 'Echo: three' });
    const streamed = await client.messages
      .stream({ model: 'echo', max_tokens: 100, messages: [{ role: 'user', content: 'four' }] })
      .finalMessage();
    expect(streamed.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(streamed.content.at(-1)).toMatchObject({ text: 'Echo: four' });
    expect(dir.model.requests).toHaveLength(2);
  }, 120_000);

  it('an MCP tool call goes through the queue to a worker, with progress', async () => {
    const { face, dir } = await queueFace(['--mcp', 'http:0']);
    const client = new Client({ name: 'queue-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(face.urls.mcp!)));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'resume_session']);
      let updates = 0;
      const result = await client.callTool({ name: 'echo', arguments: { prompt: 'five' } }, undefined, {
        onprogress: () => {
          updates += 1;
        },
      });
      expect(result.content).toEqual([{ type: 'text', text: 'Echo: five' }]);
      expect(updates).toBeGreaterThan(0);
      expect(dir.model.requests).toHaveLength(1);
    } finally {
      await client.close();
    }
  }, 120_000);

  it("a queue worker runs the agent file's guardrails: an input trip makes no model call, a streamed report stops before the offending text", async () => {
    const { face, dir, name } = await queueFace(['--openai', '0'], guardedWorkersOnly);
    const client = new OpenAI({ baseURL: face.urls.openai, apiKey: 'none', maxRetries: 0 });
    const refused = await client.chat.completions
      .create({ model: 'echo', messages: [{ role: 'user', content: 'say the forbidden word' }] })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 422, type: 'guardrail_tripped', code: 'no-forbidden' });
    expect(dir.model.requests).toHaveLength(0);
    // A report long enough that its start streams before the secret reaches the stream check.
    const prompt = `${'a harmless sentence. '.repeat(40)}SECRET-42 and more`;
    const stream = await client.chat.completions.create({
      model: 'echo',
      messages: [{ role: 'user', content: prompt }],
      stream: true,
    });
    let shown = '';
    const failure = await (async () => {
      for await (const chunk of stream) shown += chunk.choices[0]?.delta?.content ?? '';
    })().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as Error).message).toContain('guardrail no-secret blocked the report');
    expect(shown).not.toContain('SECRET');
    expect(dir.model.requests).toHaveLength(1);
    expect(await jobsLeft(name)).toMatchObject({ waiting: 0, active: 0 });
  }, 120_000);
});
