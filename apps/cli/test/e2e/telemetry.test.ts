import { readFileSync } from 'node:fs';
import { startOtlpReceiver } from '@agent/testkit';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { removeWorkspaces, report, scriptedAgent } from './helpers.js';

afterAll(removeWorkspaces);

async function receiver() {
  const started = await startOtlpReceiver();
  onTestFinished(() => started.close());
  return started;
}

describe('agent run: OpenTelemetry export', () => {
  it('OTEL_EXPORTER_OTLP_ENDPOINT: the run’s spans reach the collector before the CLI exits', async () => {
    const otlp = await receiver();
    const { run, file } = await scriptedAgent([report('Done.')]);
    const result = await run(['run', file, 'Go'], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_SERVICE_NAME: 'nightly-agents' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('Done.\n');
    const traceId = otlp.spans.find((s) => s.name === 'invoke_agent ask')?.traceId;
    expect(traceId).toBeDefined();
    expect(otlp.spans.filter((s) => s.traceId === traceId).map((s) => s.name)).toEqual(
      expect.arrayContaining(['invoke_agent ask', 'turn 1', 'chat scripted-model']),
    );
    expect(new Set(otlp.spans.map((s) => s.serviceName))).toEqual(new Set(['nightly-agents']));
  });

  it('agent.json telemetry: its endpoint, header and service name; the header value is never printed', async () => {
    const otlp = await receiver();
    const { run, file, ws } = await scriptedAgent([report('Done.')]);
    const config = JSON.parse(readFileSync(ws.file('agent.json'), 'utf8')) as Record<string, unknown>;
    config.telemetry = {
      otlp: { endpoint: otlp.url, headers: { authorization: 'Bearer otlp-secret-7' } },
      sampler: 'parentbased_always_on',
      serviceName: 'from-config',
    };
    ws.write('agent.json', JSON.stringify(config));
    const result = await run(['run', file, 'Go', '--verbose']);
    expect(result.code, result.stderr).toBe(0);
    expect(otlp.spans.map((s) => s.name)).toContain('invoke_agent ask');
    expect(otlp.headers.every((h) => h.authorization === 'Bearer otlp-secret-7')).toBe(true);
    expect(new Set(otlp.spans.map((s) => s.serviceName))).toEqual(new Set(['from-config']));
    expect(`${result.stdout}${result.stderr}`).not.toContain('otlp-secret-7');
  });

  it('a sampler that drops everything (OTEL_TRACES_SAMPLER=always_off) exports no span', async () => {
    const otlp = await receiver();
    const { run, file } = await scriptedAgent([report('Done.')]);
    const result = await run(['run', file, 'Go'], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_TRACES_SAMPLER: 'always_off' },
    });
    expect(result.code, result.stderr).toBe(0);
    // The CLI flushed and exited: what was not exported by then never will be.
    expect(otlp.spans).toEqual([]);
  });
});
