import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

// An app imports no other app, so the CLI and the server each keep otel-export.ts: one file, two copies.
test('apps/cli and apps/server keep the same otel-export.ts', () => {
  const server = readFileSync(new URL('../src/otel-export.ts', import.meta.url), 'utf8');
  const cli = readFileSync(new URL('../../cli/src/otel-export.ts', import.meta.url), 'utf8');
  expect(cli).toBe(server);
});
