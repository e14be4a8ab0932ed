import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { basename, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requires } from '../../../tooling/vitest/skip.js';
import { driveScenario } from './conformance-driver.js';
import { FIXTURES, tempDir } from './helpers.js';

// The suite needs Node 22; it is installed outside the workspace (tooling/conformance, `npm ci`).
const TOOLING = resolve(import.meta.dirname, '../../../tooling/conformance');
const NODE22 = join(TOOLING, 'node_modules/.bin/node');
const CLI = join(TOOLING, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** The client scenarios that apply to a tools client (the others test auth and elicitation). */
const SCENARIOS = [
  'initialize',
  'tools_call',
  'sse-retry',
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/client-credentials-basic',
] as const;

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

function runSuite(
  scenario: string,
  relayUrl: string,
  outDir: string,
): Promise<{ code: number | null; output: string }> {
  const command = `${process.execPath} ${join(FIXTURES, 'conformance-relay.mjs')} ${relayUrl}`;
  return new Promise((done) => {
    const child = spawn(NODE22, [CLI, 'client', '--command', command, '--scenario', scenario, '-o', outDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: outDir,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('close', (code) => done({ code, output }));
  });
}

function readChecks(outDir: string, scenario: string): Check[] {
  // `auth/x` results go to `<out>/auth/x-<time>/`.
  const parent = join(outDir, dirname(scenario));
  const dir = existsSync(parent)
    ? readdirSync(parent).find((name) => name.startsWith(`${basename(scenario)}-`))
    : undefined;
  if (!dir) return [];
  const file = join(parent, dir, 'checks.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Check[]) : [];
}

describe('MCP conformance suite, client scenarios', requires('conformance'), () => {
  const out = tempDir('mcp-conformance-');
  let relay: Server;
  let relayUrl = '';

  beforeAll(async () => {
    relay = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', async () => {
        const { scenario, url, context } = JSON.parse(body) as {
          scenario: string;
          url: string;
          context?: string;
        };
        const outcome = await driveScenario(scenario, url, context);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(outcome));
      });
    });
    await new Promise<void>((ready) => relay.listen(0, '127.0.0.1', ready));
    const address = relay.address();
    relayUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  });
  afterAll(async () => {
    await new Promise((closed) => relay?.close(closed));
    out.remove();
  });

  it.each(SCENARIOS)(
    'passes %s',
    async (scenario) => {
      const { code, output } = await runSuite(scenario, relayUrl, out.path);
      const checks = readChecks(out.path, scenario);
      const failed = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
      expect(failed, output).toEqual([]);
      expect(
        checks.some((check) => check.status === 'SUCCESS'),
        output,
      ).toBe(true);
      expect(code, output).toBe(0);
    },
    60_000,
  );
});
