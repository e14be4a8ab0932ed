import { join } from 'node:path';
import type { ModelClientConfig } from '@agent/providers';
import { scriptedModel } from '@agent/testkit';
import { expect, test } from 'vitest';
import { resolveConfig } from '../src/config/layers.js';
import { runAgentFile } from '../src/index.js';
import { finalAnswer } from './helpers/reports.js';
import { agentFile, tempTree } from './helpers/temp-tree.js';

// The providers' model-table overrides (docs/providers.md) reach the client from agent.json:
// request-shape settings on the provider, model facts on its models.
test('provider and model entries pass the request-shape settings to the client', async () => {
  const root = tempTree({
    'agent.json': {
      providers: {
        mistral: {
          type: 'openai-compatible',
          baseURL: 'http://mistral.test/v1',
          streamUsage: false,
          toolCallIdFormat: 'mistral',
          assistantAfterToolResults: true,
          models: {
            m: {
              reasoningModel: true,
              omitSampling: ['temperature'],
              reasoningEfforts: ['low', 'high'],
              maxTokensField: 'max_completion_tokens',
              outputTokenLimit: 8000,
              longContext: false,
            },
          },
        },
      },
    },
    'a.ai': agentFile('models: [mistral/m]\nreasoning: xhigh'),
  });
  const seen: ModelClientConfig[] = [];
  const model = scriptedModel([(request) => ({ text: finalAnswer(request.messages, 'ok') })]);
  const result = await runAgentFile('a.ai', 'hi', {
    cwd: root,
    env: {},
    userConfigDir: join(root, 'none'),
    systemConfigDir: join(root, 'none'),
    clientFactory: ({ config }) => {
      seen.push(config);
      return model;
    },
  });
  expect(result.success).toBe(true);
  expect(seen[0]).toMatchObject({
    streamUsage: false,
    toolCallIdFormat: 'mistral',
    assistantAfterToolResults: true,
    reasoningModel: true,
    omitSampling: ['temperature'],
    reasoningEfforts: ['low', 'high'],
    maxTokensField: 'max_completion_tokens',
    outputTokenLimit: 8000,
    longContext: false,
  });
  // The agent file's effort reached the session as written.
  expect(model.requests[0]?.options.reasoning).toEqual({ effort: 'xhigh' });
});

test('a bad value names the file, the line, the key and what is allowed', () => {
  const root = tempTree({
    'agent.json': {
      providers: { p: { type: 'openai-compatible', baseURL: 'http://p.test/v1', toolCallIdFormat: 'short' } },
    },
  });
  expect(() => resolveConfig({ cwd: root, env: {}, userConfigDir: root, systemConfigDir: root })).toThrow(
    /^agent\.json:\d+: `providers\.p\.toolCallIdFormat` must be one of openai, anthropic, mistral, any/,
  );
});
