// What the CLI shows of what the core reports: the provider's words in `result.error`,
// `finalReport.origin`, and the `tool_started` / `tool_finished` events. These pass with a
// core that sets them (the core-hardening branch); against an older core they fail.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AgentResult } from '@agent/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { requires } from '../../../../tooling/vitest/skip.js';
import {
  addMcpServers,
  CLI_BIN,
  isolatedEnv,
  lastLine,
  removeWorkspaces,
  report,
  STUBBORN_MCP,
  type Step,
  scriptedAgent,
} from './helpers.js';

afterAll(removeWorkspaces);

/** A loopback port nobody listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the closing line of a failed run says why, in the provider’s words', () => {
  it('names the model the provider does not know', async () => {
    const { run, file } = await scriptedAgent(
      [() => ({ error: { kind: 'model_not_found' } })],
      'models: test/gpt-9000\nmaxTurns: 1',
    );
    const result = await run(['run', file, 'Hello']);
    expect(result.code, result.stderr).toBe(7);
    expect(result.stdout).toBe('');
    const closing = lastLine(result.stderr);
    expect(closing).toMatch(/^agent: EXIT-MODEL-ERROR: .*\(exit 7\)$/);
    expect(closing).toContain('test/gpt-9000');
    expect(closing).toContain('The model `gpt-9000` does not exist');
  });

  it('names the refused connection of a closed port', async () => {
    const port = await closedPort();
    const { ws, run, file } = await scriptedAgent([], 'models: closed/some-model\nmaxTurns: 1');
    ws.write(
      'agent.json',
      JSON.stringify({
        providers: {
          closed: { type: 'openai-compatible', baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'k' },
        },
      }),
    );
    const result = await run(['run', file, 'Hello']);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stdout).toBe('');
    const closing = lastLine(result.stderr);
    expect(closing).toMatch(/^agent: EXIT-NO-LLM-RESPONSE: .*\(exit 3\)$/);
    expect(closing).toContain('closed/some-model');
    expect(closing).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
  });
});

describe('a report adopted from plain text', () => {
  it('is printed, and stderr and --json say the model declared no status', async () => {
    const plain: Step = () => ({ text: 'Just plain words.', usage: { inputTokens: 5, outputTokens: 3 } });
    const { run, file } = await scriptedAgent(
      Array.from({ length: 8 }, () => plain),
      'models: test/scripted-model\nmaxTurns: 1',
    );
    const result = await run(['run', file, 'Hello']);
    expect(result.stdout).toBe('Just plain words.\n');
    expect(result.stderr).toContain(
      "agent: report adopted from the model's text; the model declared no status",
    );
    const json = await run(['run', file, 'Hello', '--json']);
    expect((JSON.parse(json.stdout) as AgentResult).finalReport?.origin).toBe('adopted-text');
  });
});

// util-linux `script` gives the CLI a pseudo-terminal, so it draws the status line.
describe('the status line', requires('script'), () => {
  it('shows a running MCP tool, from the tool_started event', async () => {
    const { ws, file } = await scriptedAgent(
      [() => ({ toolCalls: [{ name: 'stubborn__wait', arguments: {} }] }), report('waited')],
      'models: test/scripted-model\ntools: [stubborn]\nmaxTurns: 3',
    );
    addMcpServers(ws, {
      stubborn: { type: 'stdio', command: process.execPath, args: [STUBBORN_MCP, ws.file('pids'), '1500'] },
    });
    const command = [process.execPath, CLI_BIN, 'run', file, 'Go', '--config', ws.file('agent.json')];
    const quoted = command.map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(' ');
    const out = await new Promise<string>((resolve) => {
      const child = spawn('script', ['-qec', quoted, '/dev/null'], {
        cwd: ws.dir,
        env: { ...process.env, ...isolatedEnv(ws), TERM: 'xterm-256color', COLUMNS: '150', NO_COLOR: '1' },
      });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      child.stdin.end();
      child.on('close', () => resolve(text));
    });
    expect(out).toContain('tools: stubborn__wait');
    expect(out).toContain('waited');
  });
});
