// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is config syntax here
// A replay builds every client with `clientFactory` and needs no API key: a provider whose
// `apiKey` names a variable nobody set still runs then (the key left out of the factory's
// config); without a factory such a run is refused as before.
import { createModelClient, type ModelClientConfig } from '@agent/providers';
import { finalReport, startModelServer } from '@agent/testkit';
import { expect, test } from 'vitest';
import { createAgentRunner } from '../src/index.js';
import { agentFile, isolated, tempTree } from './helpers/temp-tree.js';

const treeWithUnsetKey = (baseURL: string) =>
  tempTree({
    'agent.json': {
      providers: { local: { type: 'openai-compatible', baseURL, apiKey: '${NO_SUCH_KEY}' } },
    },
    'a.ai': agentFile('models: [local/m]'),
  });

test('with a clientFactory, an apiKey whose variable is unset is left out and the run goes on', async () => {
  const server = await startModelServer({ steps: [finalReport('answered without a key')], strict: true });
  try {
    const root = treeWithUnsetKey(`${server.url}/v1`);
    const configs: ModelClientConfig[] = [];
    const runner = await createAgentRunner('a.ai', {
      ...isolated(root),
      clientFactory: ({ config }) => {
        configs.push(config);
        return createModelClient({ ...config, apiKey: 'replay' });
      },
    });
    const result = await runner.run('Hello?');
    await runner.close();
    expect(result.success, result.error).toBe(true);
    expect(result.finalReport?.content).toContain('answered without a key');
    expect(configs[0]).not.toHaveProperty('apiKey');
    expect(configs[0]).toMatchObject({ provider: 'local', model: 'm', baseURL: `${server.url}/v1` });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers?.authorization).toBeDefined();
  } finally {
    await server.close();
  }
});

test('without a clientFactory, the unset variable still refuses the run, naming it', async () => {
  const root = treeWithUnsetKey('http://127.0.0.1:9/v1');
  await expect(createAgentRunner('a.ai', isolated(root))).rejects.toMatchObject({
    kind: 'configuration',
    message: expect.stringContaining('${NO_SUCH_KEY}, which is not set'),
  });
});
