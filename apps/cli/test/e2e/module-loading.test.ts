// What a plain `agent run` loads on its way to the model: none of the packages only some runs
// need (MCP and A2A clients, the OpenTelemetry SDK and exporter, evals, tool search, the
// tokenizer, the worker-thread pool). The spawned CLI logs every module it loads: an ESM `load`
// hook (it also sees the entry of each CommonJS package an ES module imports) and, at exit, the
// CommonJS cache (packages loaded with `require`, like the model SDKs).
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { removeWorkspaces, report, scriptedAgent } from './helpers.js';

afterAll(removeWorkspaces);

const UNUSED_BY_A_PLAIN_RUN = [
  '@a2a-js/sdk',
  '@modelcontextprotocol/sdk',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/sdk-trace-node',
  'gpt-tokenizer',
  'minisearch',
  'piscina',
];

const HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.LOADED_LOG, url + '\\n');
  return next(url, context);
}
`;

const REGISTER = (hooks: string) => `import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
register(${JSON.stringify(hooks)});
const cjs = createRequire(import.meta.url)('node:module')._cache;
process.on('exit', () => appendFileSync(process.env.LOADED_LOG, Object.keys(cjs).join('\\n') + '\\n'));
`;

/** The packages of `names` whose files the log names (a workspace package by its folder). */
function loaded(log: string, names: readonly string[]): string[] {
  const paths = readFileSync(log, 'utf8');
  return names.filter((name) =>
    name.startsWith('packages/')
      ? paths.includes(`/${name}/dist/`)
      : paths.includes(`/node_modules/${name}/`),
  );
}

describe('agent run: start-up loading', () => {
  it('reaches the model and reports with none of the packages only other runs need loaded', async () => {
    const { run, ws, server } = await scriptedAgent([report('Loaded light.')]);
    const hooks = ws.write('hooks.mjs', HOOKS);
    const register = ws.write('register.mjs', REGISTER(pathToFileURL(hooks).href));
    const log = ws.write('loaded.txt', '');
    const result = await run(['run', ws.file('ask.ai'), 'Say something.'], {
      env: { LOADED_LOG: log, NODE_OPTIONS: `--import ${pathToFileURL(register).href}` },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('Loaded light.\n');
    expect(server.requests).toHaveLength(1);
    // Both logs worked: the model SDK (required) and the CLI's bundle (imported) are in them.
    expect(loaded(log, ['openai'])).toEqual(['openai']);
    expect(readFileSync(log, 'utf8')).toContain('/apps/cli/dist/agent.js');
    expect(loaded(log, [...UNUSED_BY_A_PLAIN_RUN, 'packages/evals', 'packages/mcp', 'packages/a2a'])).toEqual(
      [],
    );
  });
});
