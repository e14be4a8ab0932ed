import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type OtlpReceiver, startOtlpReceiver } from '@agent/testkit';
import { afterEach, describe, expect, test } from 'vitest';
import { type ExportSettings, startOtelExport } from '../src/export/index.js';

// `@agent/telemetry/export`: the OTLP/HTTP export the apps set up, against the testkit's loopback
// OTLP receiver; and the SDK left unloaded (it is an optional peer) when no endpoint is named.

let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const run = promisify(execFile);
const PACKAGE = new URL('..', import.meta.url);

/**
 * Sets up export in a process of its own with the built entry (test/fixtures/export-child.mjs),
 * makes a span `work` with a child `step`, and shuts the export down.
 */
async function exportIn(
  settings: ExportSettings | undefined,
  env: Record<string, string>,
  name = 'default-name',
): Promise<{ started: boolean; target: string | null }> {
  const args = [settings ?? null, env, name].map((value) => JSON.stringify(value));
  const { stdout } = await run(process.execPath, ['test/fixtures/export-child.mjs', ...args], {
    cwd: PACKAGE,
    env: { PATH: process.env.PATH ?? '' },
  });
  return JSON.parse(stdout) as { started: boolean; target: string | null };
}

describe('startOtelExport', () => {
  test("agent.json's telemetry: its endpoint, headers, service name and sampler; the target without credentials", async () => {
    receiver = await startOtlpReceiver();
    const endpoint = receiver.url.replace('http://', 'http://user:pw@');
    const outcome = await exportIn(
      {
        otlp: { endpoint: `${endpoint}/`, headers: { authorization: 'Bearer otlp-secret' } },
        sampler: 'parentbased_always_on',
        serviceName: 'from-config',
      },
      { OTEL_SERVICE_NAME: 'from-env' },
    );
    expect(outcome).toEqual({ started: true, target: `${receiver.url}/v1/traces` });
    expect(receiver.spans.map((span) => span.name).sort()).toEqual(['step', 'work']);
    const [work, step] = ['work', 'step'].map((name) => receiver?.spans.find((span) => span.name === name));
    expect(step?.parentSpanId).toBe(work?.spanId);
    expect(new Set(receiver.spans.map((span) => span.serviceName))).toEqual(new Set(['from-config']));
    expect(receiver.headers.every((headers) => headers.authorization === 'Bearer otlp-secret')).toBe(true);
  });

  test('OTEL_* variables when there is no section; the app name as the default service name', async () => {
    receiver = await startOtlpReceiver();
    const outcome = await exportIn(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }, 'agent-cli');
    expect(outcome.started).toBe(true);
    expect(receiver.spans).toHaveLength(2);
    expect(new Set(receiver.spans.map((span) => span.serviceName))).toEqual(new Set(['agent-cli']));
  });

  test('a sampler that drops everything exports nothing', async () => {
    receiver = await startOtlpReceiver();
    const outcome = await exportIn({ otlp: { endpoint: receiver.url }, sampler: 'always_off' }, {});
    expect(outcome.started).toBe(true);
    expect(receiver.spans).toEqual([]);
  });

  test('nothing is set up without an endpoint, or when OTEL_SDK_DISABLED / OTEL_TRACES_EXPORTER=none say so', async () => {
    receiver = await startOtlpReceiver();
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
    expect(await startOtelExport(undefined, {}, 'x')).toBeUndefined();
    expect(
      await startOtelExport({ otlp: { endpoint: ' ' } }, { OTEL_EXPORTER_OTLP_ENDPOINT: '' }, 'x'),
    ).toBeUndefined();
    expect(await exportIn(undefined, { ...endpoint, OTEL_SDK_DISABLED: 'TRUE' })).toEqual({
      started: false,
      target: null,
    });
    expect(await exportIn(undefined, { ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toEqual({
      started: false,
      target: null,
    });
    expect(receiver.spans).toEqual([]);
  });
});

// A resolve hook makes the OpenTelemetry SDK packages impossible to load, as for a library user
// who installed only @agent/telemetry (its SDK peers are optional).
const BLOCK_SDK = `export async function resolve(specifier, context, next) {
  if (/^@opentelemetry\\/(sdk-|exporter-|resources|semantic-conventions)/.test(specifier)) {
    const error = new Error('not installed: ' + specifier);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`;

const CHILD = `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(BLOCK_SDK)}));
const main = await import('@agent/telemetry');
const exporting = await import('@agent/telemetry/export');
const off = await exporting.startOtelExport(undefined, {}, 'x');
let failed = '';
try {
  await exporting.startOtelExport({ otlp: { endpoint: 'http://127.0.0.1:9' } }, {}, 'x');
} catch (error) {
  failed = error.message;
}
process.stdout.write(JSON.stringify({ main: typeof main.traceSession, off: off === undefined, failed }));`;

test('the built entries load without the SDK; only an endpoint makes startOtelExport load it', async () => {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', CHILD], { cwd: PACKAGE });
  expect(JSON.parse(stdout)).toEqual({
    main: 'function',
    off: true,
    failed: expect.stringContaining('not installed: @opentelemetry/'),
  });
});
