import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requires } from '../../../tooling/vitest/skip.js';
import { createMcpHeadend, type ServedHeadend, serve } from '../src/index.js';
import { echoAnswer, startAgents, type TestAgents } from './helpers/agents.js';

const run = promisify(execFile);
const tooling = fileURLToPath(new URL('../../../tooling/conformance/', import.meta.url));
const node22 = `${tooling}node_modules/.bin/node`;
const cli = `${tooling}node_modules/@modelcontextprotocol/conformance/dist/index.js`;

/** The server scenarios that apply to a tools-only server with logging (see docs/headends.md). */
export const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'dns-rebinding-protection',
  'logging-set-level',
  'server-sse-polling',
  'server-sse-multiple-streams',
];

let agents: TestAgents;
let server: ServedHeadend;

describe(
  'MCP conformance suite (server scenarios) against the Streamable HTTP headend',
  requires('conformance'),
  () => {
    beforeAll(async () => {
      // server-sse-polling calls a tool named test_reconnection (here an agent of that name) and
      // wants its stream closed mid-call, then the result after a reconnect with Last-Event-ID.
      agents = await startAgents(echoAnswer, ['echo', 'test_reconnection']);
      server = await serve(
        createMcpHeadend({ catalog: agents.catalog, allowNoAuth: true, streamCloseAfterMs: 0 }),
      );
    });

    afterAll(async () => {
      await server?.close();
      await agents?.close();
    });

    it.each(SCENARIOS)(
      'passes %s',
      async (scenario) => {
        const url = `http://localhost:${server.port}/mcp`;
        const outcome = await run(node22, [cli, 'server', '--url', url, '--scenario', scenario], {
          timeout: 60_000,
        }).then(
          (done) => ({ code: 0, output: done.stdout + done.stderr }),
          (error: { code?: number; stdout?: string; stderr?: string }) => ({
            code: error.code ?? 1,
            output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
          }),
        );
        expect(outcome.output).toMatch(/\] .*SUCCESS/);
        expect(outcome.output).not.toMatch(/\] .*(FAILURE|WARNING)/);
        expect(outcome.code, outcome.output).toBe(0);
      },
      90_000,
    );
  },
);
