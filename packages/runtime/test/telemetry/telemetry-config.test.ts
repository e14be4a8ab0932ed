import { join } from 'node:path';
import { expect, test } from 'vitest';
import { RuntimeError, runAgentFile, telemetrySettings } from '../../src/index.js';
import { agentFile, isolated, localConfig, tempTree } from '../helpers/temp-tree.js';

// agent.json's `telemetry` (issue 18): checked when the file is read; the apps read it back.
test('agent.json: a telemetry section that cannot work is an error at its line, header values never quoted', async () => {
  const check = async (config: object) => {
    const root = tempTree({ 'agent.json': localConfig(config), 'a.ai': agentFile('models: [local/m]') });
    const result = await runAgentFile('a.ai', 'hi', isolated(root));
    return result.success ? 'ok' : result.error;
  };
  expect(await check({ telemetry: { sampler: 'sometimes' } })).toMatch(
    /^agent\.json:\d+: `telemetry\.sampler` must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio, got "sometimes"$/,
  );
  expect(await check({ telemetry: { sampler: { type: 'traceidratio', ratio: 2 } } })).toMatch(
    /`telemetry\.sampler`/,
  );
  expect(await check({ telemetry: { otlp: { endpoint: 'collector:4318' } } })).toMatch(
    /`telemetry\.otlp\.endpoint` must be an http\(s\) URL \(the OTLP\/HTTP base URL\), got "collector:4318"/,
  );
  const secret = await check({
    telemetry: { otlp: { endpoint: 'http://x', headers: { authorization: 42 } } },
  });
  expect(secret).toMatch(/`telemetry\.otlp\.headers\.authorization` must be a header value/);
  expect(secret).not.toContain('42');
  expect(await check({ telemetry: { otlp: { endpont: 'http://x' } } })).toMatch(
    /unknown key `endpont` in `telemetry\.otlp`; did you mean `endpoint`\?/,
  );
});

test('telemetrySettings: the highest layer that has a telemetry section gives all of it; none gives undefined', () => {
  const section = {
    otlp: { endpoint: 'http://127.0.0.1:4318', headers: { authorization: 'Bearer s3cret' } },
    sampler: { type: 'parentbased_traceidratio', ratio: 0.25 },
    serviceName: 'my-agents',
  };
  const root = tempTree({
    'agent.json': localConfig({ telemetry: section }),
    'a.ai': agentFile('models: [local/m]'),
    'user/agent.json': { telemetry: { sampler: 'always_off' } },
  });
  expect(telemetrySettings({ ...isolated(root), userConfigDir: join(root, 'user') })).toEqual(section);
  const bare = tempTree({ 'agent.json': localConfig(), 'a.ai': agentFile('models: [local/m]') });
  expect(telemetrySettings({ ...isolated(bare), agentFile: 'a.ai' })).toBeUndefined();
  const bad = tempTree({ 'agent.json': localConfig({ telemetry: { sampler: 'sometimes' } }) });
  expect(() => telemetrySettings(isolated(bad))).toThrow(RuntimeError);
});
