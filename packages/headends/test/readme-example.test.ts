import { readFileSync } from 'node:fs';
import { runAgent } from '@agent/core';
import type { AgentResult } from '@agent/protocol';
import { scriptedModel } from '@agent/testkit';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createCatalog, createOpenAiHeadend, type ServedAgent, serve } from '../src/index.js';

// The README example, kept in step with it (the README's block is checked to contain these lines).
describe('README example', () => {
  it('serves a core agent as an OpenAI-compatible endpoint', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain('console.log(completion.choices[0].message.content); // Hello, Ada!');
    const report = (text: string) =>
      `<ai-agent-{{NONCE}}-FINAL tool="agent__final_report" status="success" format="markdown">${text}</ai-agent-{{NONCE}}-FINAL>`;
    const greeter: ServedAgent = {
      info: { name: 'greeter', description: 'Greets people.', outputFormat: 'markdown' },
      run: (prompt, options): Promise<AgentResult> =>
        runAgent({
          targets: [{ client: scriptedModel([{ text: report(`Hello, ${prompt}!`) }]) }],
          userPrompt: prompt,
          conversationHistory: options.conversationHistory,
          expectedOutput: { format: options.format ?? 'markdown', schema: options.schema },
          callbacks: { onEvent: options.onEvent },
          signal: options.signal,
        }),
    };
    const server = await serve(
      createOpenAiHeadend({ catalog: createCatalog([greeter]), tokens: ['secret'] }),
      {
        port: 0,
        host: '127.0.0.1',
      },
    );
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'secret', maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: 'greeter',
      messages: [{ role: 'user', content: 'Ada' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Hello, Ada!');
    await server.drain(5_000);
  });
});
