// What a server loads at start: the SDKs of the A2A, MCP and Slack headends, the viewer and
// prom-client only when their flags ask for them, bullmq and ioredis only with a queue. A loader hook in the spawned server (ESM `load`,
// which also sees the entry of each CommonJS package an ES module imports) writes every URL it
// loads to a file; the test reads which packages are there once the server answers.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentDir, agentDir, finalReport, type RunningServer, startServer } from './helpers.js';

const OPTIONAL_PACKAGES = [
  '@a2a-js/sdk',
  '@modelcontextprotocol/sdk',
  '@slack/web-api',
  'bullmq',
  'ioredis',
  'prom-client',
];

let dir: AgentDir | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  server = undefined;
  await dir?.close();
  dir = undefined;
});

/** Starts the built server with `args` under a hook that logs each loaded URL; returns the log's path. */
async function startLogged(
  args: string[],
  expected: number,
): Promise<{ log: string; running: RunningServer }> {
  dir = await agentDir(() => ({ text: finalReport('ok') }));
  const log = join(dir.dir, 'loaded.txt');
  const hooks = join(dir.dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    "import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(process.env.LOADED_LOG, `${url}\\n`);\n  return next(url, context);\n}\n",
  );
  const register = join(dir.dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  writeFileSync(log, '');
  const running = await startServer(
    ['--agent', dir.files[0]!, '--agent-config', join(dir.dir, 'agent.json'), '--allow-no-auth', ...args],
    dir.dir,
    expected,
    { LOADED_LOG: log, NODE_OPTIONS: `--import ${pathToFileURL(register).href}` },
  );
  server = running;
  return { log, running };
}

/** The optional packages whose files the log names. */
function loadedOptional(log: string): string[] {
  const urls = readFileSync(log, 'utf8');
  return OPTIONAL_PACKAGES.filter((name) => urls.includes(`/node_modules/${name}/`));
}

describe('agent-server start-up loading', () => {
  it('serves REST with none of the A2A, MCP, Slack SDKs, prom-client, bullmq nor ioredis loaded', async () => {
    const { log, running } = await startLogged(['--api', '0'], 1);
    const health = await fetch(`${running.urls.rest!.replace(/\/v1\/agents$/, '')}/health`);
    expect(health.status).toBe(200);
    // The hook did run: the server's own bundle is in the log.
    expect(readFileSync(log, 'utf8')).toContain('agent-server.js');
    expect(loadedOptional(log)).toEqual([]);
  });

  it('loads the MCP SDK and prom-client when --mcp and --metrics ask for them, and both answer', async () => {
    const { log, running } = await startLogged(['--api', '0', '--mcp', 'http:0', '--metrics', '0'], 3);
    const metrics = await fetch(running.urls.metrics!);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('# TYPE');
    expect(running.urls.mcp).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(loadedOptional(log)).toEqual(expect.arrayContaining(['@modelcontextprotocol/sdk', 'prom-client']));
  });
});
