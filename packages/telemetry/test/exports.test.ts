import { expect, test } from 'vitest';

// The public surface, pinned (types are not listed: they vanish at run time).
test('@agent/telemetry exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/telemetry')).sort()).toEqual([
    'ATTR',
    'OPERATION',
    'SessionTrace',
    'TRACER_NAME',
    'contextFromTraceparent',
    'parseTraceparent',
    'startSessionTrace',
    'traceSession',
    'traceToolCalls',
    'traceparentOf',
  ]);
});

test('@agent/telemetry/export exports exactly these values', async () => {
  expect(Object.keys(await import('@agent/telemetry/export')).sort()).toEqual([
    'TRACE_SAMPLERS',
    'startOtelExport',
  ]);
});
