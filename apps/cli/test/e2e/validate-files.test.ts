// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} text.
import { execFileSync } from 'node:child_process';
import { startModelServer } from '@agent/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { agentFile, isolatedEnv, removeWorkspaces, runCli, workspace } from './helpers.js';

afterAll(removeWorkspaces);

// No model is called here: the server URL only has to look like one.
const server = { url: 'http://127.0.0.1:9' };

// Reading /dev/zero grew `agent validate` to 4 GB and a FIFO hung it: a bounded child timeout
// turns either into a failure instead of a stuck test run.
const BOUNDED = { timeoutMs: 20_000 };

const STACK_LINE = /^\s+at /m;

describe('agent validate: files an agent file refers to', () => {
  it('/dev/zero as an include or a schemaRef is a located problem, exit 7, at once', async () => {
    const ws = workspace(server, {
      'zero-include.ai': agentFile('models: test/big', 'Intro.\n{{include: /dev/zero}}'),
      'zero-schema.ai': agentFile('models: test/big\noutput:\n  format: json\n  schemaRef: /dev/zero'),
    });
    const result = await runCli(
      ['validate', ws.file('zero-include.ai'), ws.file('zero-schema.ai'), '--config', ws.file('agent.json')],
      { cwd: ws.dir, env: isolatedEnv(ws), ...BOUNDED },
    );
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toMatch(
      /^zero-include\.ai:6: included file `\/dev\/zero` is refused: \/dev\/zero is outside .*"allowedPaths"/m,
    );
    expect(result.stderr).toMatch(/^zero-schema\.ai:6: schema file `\/dev\/zero` is refused: /m);
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it('a FIFO include is a problem, not a hang', async () => {
    const ws = workspace(server, { 'fifo.ai': agentFile('models: test/big', '{{include: ./pipe.md}}') });
    execFileSync('mkfifo', [ws.file('pipe.md')], { stdio: 'ignore' });
    const result = await runCli(['validate', ws.file('fifo.ai'), '--config', ws.file('agent.json')], {
      cwd: ws.dir,
      env: isolatedEnv(ws),
      ...BOUNDED,
    });
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toContain(
      'fifo.ai:5: included file `./pipe.md` cannot be read: it is a named pipe (FIFO), not a regular file',
    );
  });

  it('a YAML alias bomb in the frontmatter: file:line, exit 7, no stack', async () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
      'e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]',
    ].join('\n');
    const ws = workspace(server, { 'bomb.ai': agentFile(`models: test/big\n${bomb}`) });
    const result = await runCli(['validate', ws.file('bomb.ai'), '--config', ws.file('agent.json')], {
      cwd: ws.dir,
      env: isolatedEnv(ws),
      ...BOUNDED,
    });
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toMatch(/^bomb\.ai:5: invalid YAML in the frontmatter: YAML aliases expand/m);
    expect(result.stderr).not.toContain('internal error');
    expect(result.stderr).not.toMatch(STACK_LINE);
  });
});

describe('agent run: a key no HTTP header can carry', () => {
  it('an API key with a line break in .env is a configuration error (exit 7) and no request is sent', async () => {
    const model = await startModelServer({ steps: [{ text: 'never sent' }] });
    try {
      const ws = workspace(model, { 'a.ai': agentFile('models: keyed/m') });
      ws.write(
        'agent.json',
        JSON.stringify({
          providers: {
            keyed: { type: 'openai-compatible', baseURL: `${model.url}/v1`, apiKey: '${KEYED_API_KEY}' },
          },
        }),
      );
      ws.write('.env', 'KEYED_API_KEY="sk-live-first-line\\nsk-live-second-line"\n');
      const result = await runCli(['run', ws.file('a.ai'), 'hi', '--config', ws.file('agent.json')], {
        cwd: ws.dir,
        env: isolatedEnv(ws),
        ...BOUNDED,
      });
      expect(result.code, result.stderr).toBe(7);
      expect(result.stderr).toContain(
        '`providers.keyed.apiKey` holds a line break (from ${KEYED_API_KEY}, set in the .env beside agent.json)',
      );
      expect(result.stderr).not.toContain('sk-live');
      expect(model.requests).toHaveLength(0);
    } finally {
      await model.close();
    }
  });
});

describe('agent validate: prompt variables no run fills in', () => {
  it('an unknown ${...} or {{...}} is a warning with file and line; the file is still ok (exit 0)', async () => {
    const ws = workspace(server, {
      'vars.ai': agentFile('models: test/big', 'Now: ${DATETIME}\nOn ${OPERATING_SYSTEM} as {{USER}}.'),
    });
    const result = await runCli(['validate', ws.file('vars.ai'), '--config', ws.file('agent.json')], {
      cwd: ws.dir,
      env: isolatedEnv(ws),
      ...BOUNDED,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^ok .*vars\.ai/m);
    expect(result.stderr).toMatch(
      /^warning: vars\.ai:6: unknown prompt variable `\$\{OPERATING_SYSTEM\}`: the model gets it as written/m,
    );
    // ${DATETIME} and {{USER}} are known: one warning only.
    expect(result.stderr.match(/^warning:/gm)).toHaveLength(1);
  });
});
