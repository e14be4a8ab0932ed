import { startModelServer } from '@agent/testkit';
import { describe, expect, test } from 'vitest';
import { runAgentFile } from '../src/index.js';
import { finalAnswer } from './helpers/reports.js';
import { agentFile, isolated, localConfig, tempTree } from './helpers/temp-tree.js';

// Seed 002's topK and repeatPenalty, set where temperature and topP are (the agent file, the
// config's defaults): the official OpenAI client puts them in the HTTP body the testkit server
// records, under the field the provider entry names.
describe('topK and repeatPenalty from agent files and agent.json', () => {
  test('the agent file sets them; an OpenAI-compatible server gets top_k and repetition_penalty', async () => {
    const server = await startModelServer({
      handler: (request) => ({ text: finalAnswer(request.messages, 'ok') }),
    });
    try {
      const root = tempTree({
        'agent.json': localConfig({}, `${server.url}/v1`),
        'agent.ai': agentFile('models: [local/qwen]\ntemperature: 0.4\ntopK: 40\nrepeatPenalty: 1.15'),
      });
      const result = await runAgentFile('agent.ai', 'go', isolated(root));
      expect(result.success).toBe(true);
      expect(server.requests[0]?.body).toMatchObject({
        temperature: 0.4,
        top_k: 40,
        repetition_penalty: 1.15,
      });
    } finally {
      await server.close();
    }
  });

  test("defaults set them; the provider's repeatPenaltyField renames the field (llama.cpp)", async () => {
    const server = await startModelServer({
      handler: (request) => ({ text: finalAnswer(request.messages, 'ok') }),
    });
    try {
      const root = tempTree({
        'agent.json': {
          providers: {
            llamacpp: {
              type: 'openai-compatible',
              baseURL: `${server.url}/v1`,
              repeatPenaltyField: 'repeat_penalty',
            },
          },
          defaults: { topK: 20, repeatPenalty: 1.05 },
        },
        'agent.ai': agentFile('models: [llamacpp/local]'),
      });
      const result = await runAgentFile('agent.ai', 'go', isolated(root));
      expect(result.success).toBe(true);
      const body = server.requests[0]?.body as Record<string, unknown>;
      expect(body).toMatchObject({ top_k: 20, repeat_penalty: 1.05 });
      expect(body.repetition_penalty).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  test('a value out of range is a configuration error naming what is allowed', async () => {
    const root = tempTree({
      'agent.json': localConfig(),
      'agent.ai': agentFile('models: [local/m]\ntopK: 0\nrepeatPenalty: 3'),
    });
    const result = await runAgentFile('agent.ai', 'go', isolated(root));
    expect(result.exitCode).toBe('EXIT-CONFIGURATION');
    expect(result.error).toMatch(/topK.*a positive integer/);
    expect(result.error).toMatch(/repeatPenalty.*a number above 0 and at most 2/);
  });
});
