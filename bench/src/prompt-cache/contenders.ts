// The contenders of the prompt-cache suite, each playing one session against a testkit model
// server: agent-core over `@agent/providers` (OpenAI Chat with the `openai` client; Anthropic
// Messages with the `@anthropic-ai/sdk` client), `@openai/agents` and the AI SDK, set up as the
// agent-loop suite sets them up (bench/src/agent-loop/contenders), with this suite's tools.

import { tool as coreTool, defineAgent, run } from '@agent/core';
import { createModelClient } from '@agent/providers';
import type { ModelServer } from '@agent/testkit';
import { createOpenAI } from '@ai-sdk/openai';
import {
  Agent,
  tool as agentsTool,
  OpenAIChatCompletionsModel,
  Runner,
  setTracingDisabled,
} from '@openai/agents';
import { tool as aiTool, generateText, stepCountIs } from 'ai';
import OpenAI from 'openai';
import { z } from 'zod';
import { INSTRUCTIONS, MODEL_ANTHROPIC, MODEL_OPENAI, PROMPT, TOOLS, toolResult } from './script.js';

/** How a contender's request bodies are read: OpenAI's automatic prefix, or Anthropic's marks. */
export type CacheKind = 'openai' | 'anthropic';

export interface PromptCacheContender {
  id: string;
  cache: CacheKind;
  /** Ours: gets a `targets` row. */
  ours: boolean;
  transport: string;
  /** Plays one session of `turns` model calls; resolves to the final answer. */
  play(server: ModelServer, turns: number): Promise<string>;
}

function argumentOf(input: Record<string, unknown>): string {
  return String(Object.values(input)[0] ?? '');
}

async function agentCore(type: 'openai' | 'anthropic', server: ModelServer, turns: number): Promise<string> {
  const model = createModelClient({
    type,
    provider: type,
    model: type === 'openai' ? MODEL_OPENAI : MODEL_ANTHROPIC,
    apiKey: 'bench-key',
    baseURL: type === 'openai' ? `${server.url}/v1` : server.url,
  });
  const tools = TOOLS.map((spec) =>
    coreTool({
      name: spec.name,
      description: spec.description,
      parameters: { type: 'object', properties: spec.properties, required: Object.keys(spec.properties) },
      execute: (input: Record<string, unknown>) => toolResult(spec.name, argumentOf(input)),
    }),
  );
  const agent = defineAgent({
    model,
    instructions: INSTRUCTIONS,
    tools,
    maxTurns: turns + 2,
    output: { format: 'text' },
  });
  // With a listener, as an application that shows progress runs it (so `agent__task_status` is offered).
  const result = await run(agent, PROMPT, { onEvent: () => {} });
  if (!result.success) throw new Error(`agent-core (${type}): ${result.exitCode}: ${result.error}`);
  return result.finalReport.content ?? '';
}

/** One zod object per tool, for the peers (their tools take zod schemas). */
function zodSchema(spec: (typeof TOOLS)[number]) {
  const [[key, property]] = Object.entries(spec.properties) as [[string, { description: string }]];
  return z.object({ [key]: z.string().describe(property.description) });
}

async function openaiAgents(server: ModelServer, turns: number): Promise<string> {
  setTracingDisabled(true);
  const client = new OpenAI({
    baseURL: `${server.url}/v1`,
    apiKey: 'bench-key',
    maxRetries: 0,
    logLevel: 'off',
  });
  const tools = TOOLS.map((spec) =>
    agentsTool({
      name: spec.name,
      description: spec.description,
      parameters: zodSchema(spec),
      execute: async (input) => toolResult(spec.name, argumentOf(input)),
    }),
  );
  const agent = new Agent({
    name: 'maintainer',
    instructions: INSTRUCTIONS,
    model: new OpenAIChatCompletionsModel(client, MODEL_OPENAI),
    tools,
  });
  const result = await new Runner({ tracingDisabled: true }).run(agent, PROMPT, { maxTurns: turns + 2 });
  return String(result.finalOutput ?? '');
}

async function aiSdk(server: ModelServer, turns: number): Promise<string> {
  const model = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'bench-key' }).chat(MODEL_OPENAI);
  const tools = Object.fromEntries(
    TOOLS.map((spec) => [
      spec.name,
      aiTool({
        description: spec.description,
        inputSchema: zodSchema(spec),
        execute: async (input: Record<string, unknown>) => toolResult(spec.name, argumentOf(input)),
      }),
    ]),
  );
  const result = await generateText({
    model,
    tools,
    system: INSTRUCTIONS,
    prompt: PROMPT,
    stopWhen: stepCountIs(turns + 2),
  });
  return result.text;
}

export const PROMPT_CACHE_CONTENDERS: readonly PromptCacheContender[] = [
  {
    id: 'agent-core (openai)',
    cache: 'openai',
    ours: true,
    transport: '`@agent/providers` `openai` type over the `openai` client (Chat Completions, streaming)',
    play: (server, turns) => agentCore('openai', server, turns),
  },
  {
    id: 'agent-core (anthropic)',
    cache: 'anthropic',
    ours: true,
    transport:
      '`@agent/providers` `anthropic` type over the `@anthropic-ai/sdk` client (Messages, streaming)',
    play: (server, turns) => agentCore('anthropic', server, turns),
  },
  {
    id: 'openai-agents',
    cache: 'openai',
    ours: false,
    transport: '`@openai/agents` `OpenAIChatCompletionsModel` over the `openai` client',
    play: openaiAgents,
  },
  {
    id: 'ai-sdk',
    cache: 'openai',
    ours: false,
    transport: "AI SDK `generateText` over `@ai-sdk/openai` `.chat()` (the SDK's own fetch-based provider)",
    play: aiSdk,
  },
];
