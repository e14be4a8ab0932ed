import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { requires } from '../../../../tooling/vitest/skip.js';
import {
  agentFile,
  CLI_BIN,
  isolatedEnv,
  removeWorkspaces,
  report,
  scriptedServer,
  workspace,
} from './helpers.js';

afterAll(removeWorkspaces);

function inPty(
  command: string[],
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; out: string }> {
  const quoted = command.map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', quoted, '/dev/null'], {
      cwd,
      env: { ...process.env, TERM: 'xterm-256color', COLUMNS: '100', ...env } as NodeJS.ProcessEnv,
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stdin.end();
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('on a terminal', requires('script'), () => {
  const markdown = '# Heading\n\nSome **bold** text.';

  it('draws a status line and renders Markdown', async () => {
    const slow = report(markdown);
    const server = await scriptedServer([(request, nonce) => ({ ...slow(request, nonce), delayMs: 400 })]);
    const ws = workspace(server, { 'ask.ai': agentFile('models: test/scripted-model') });
    const result = await inPty(
      [process.execPath, CLI_BIN, 'run', ws.file('ask.ai'), 'Go', '--config', ws.file('agent.json')],
      ws.dir,
      { ...isolatedEnv(ws), NO_COLOR: undefined },
    );
    expect(result.code, result.out).toBe(0);
    expect(result.out).toContain('\r\x1b[2K');
    expect(result.out).toMatch(/turn 1 \| \d+s \| .* \| test:scripted-model/);
    expect(result.out).toContain('Heading');
    expect(result.out).not.toContain('**bold**');
  });

  it('uses no ANSI at all with NO_COLOR', async () => {
    const server = await scriptedServer([report(markdown)]);
    const ws = workspace(server, { 'ask.ai': agentFile('models: test/scripted-model') });
    const result = await inPty(
      [process.execPath, CLI_BIN, 'run', ws.file('ask.ai'), 'Go', '--config', ws.file('agent.json')],
      ws.dir,
      { ...isolatedEnv(ws), NO_COLOR: '1' },
    );
    expect(result.code, result.out).toBe(0);
    expect(result.out).not.toContain('\x1b');
    expect(result.out).toContain('Some **bold** text.');
  });
});
