import type { AgentResult } from '@agent/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addMcpServers,
  agentFile,
  isolatedEnv,
  lastLine,
  removeWorkspaces,
  report,
  runCli,
  type Step,
  scriptedAgent,
  spawnCli,
  waitFor,
} from './helpers.js';

afterAll(removeWorkspaces);

describe('warnings and errors without --verbose', () => {
  it('says on stderr that an MCP server did not start, and keeps verbose lines out', async () => {
    const { ws, run, file } = await scriptedAgent(
      [report('Answered without the tools.')],
      'models: test/scripted-model\ntools: [broken]\nmaxTurns: 2',
    );
    addMcpServers(ws, { broken: { type: 'stdio', command: 'no-such-mcp-server-command' } });
    const result = await run(['run', file, 'Go']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('Answered without the tools.\n');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^WRN \[ask\] mcp:broken: MCP server "broken" was not started: .*command not found: "no-such-mcp-server-command"$/,
      ),
    );
    expect(result.stderr).not.toMatch(/VRB|sev=/);
  });

  it('escapes control characters a provider put in a warning', async () => {
    const { run, file } = await scriptedAgent([
      () => ({ error: { kind: 'server', message: 'bad \x1b[31mred\x1b[0m\nsecond line' } }),
      report('recovered'),
    ]);
    const result = await run(['run', file, 'Go']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('\x1b');
    expect(result.stderr).toMatch(/^WRN \[ask\] test:scripted-model: .*\\u001b\[31mred/m);
  });
});

describe('a failed run prints no report of its own making on stdout', () => {
  it('leaves stdout empty without --json, and gives the whole result with it', async () => {
    const empty: Step = () => ({ text: '', usage: { inputTokens: 10, outputTokens: 0 } });
    const { run, file } = await scriptedAgent(Array.from({ length: 12 }, () => empty));
    const plain = await run(['run', file, 'Anything', '--max-turns', '1']);
    expect(plain.code, plain.stderr).toBe(3);
    expect(plain.stdout).toBe('');
    expect(lastLine(plain.stderr)).toMatch(/^agent: EXIT-MAX-TURNS-NO-RESPONSE: .+ \(exit 3\)$/);
    const json = await run(['run', file, 'Anything', '--max-turns', '1', '--json']);
    expect(json.code).toBe(3);
    const parsed = JSON.parse(json.stdout) as AgentResult;
    expect(parsed.finalReport?.synthetic).toBe(true);
  });

  it('leaves stdout empty when cancelled before any report, and exits 143 on SIGTERM', async () => {
    const { ws, file, server } = await scriptedAgent([() => ({ text: 'never sent', delayMs: 30_000 })]);
    const { child, done } = spawnCli(['run', file, 'Go', '--config', ws.file('agent.json')], {
      cwd: ws.dir,
      env: isolatedEnv(ws),
    });
    await waitFor(() => server.requests.length === 1);
    child.kill('SIGTERM');
    const result = await done;
    expect(result.code, result.stderr).toBe(143);
    expect(result.stdout).toBe('');
    expect(lastLine(result.stderr)).toMatch(/\(exit 143\)$/);
  });
});

describe('a missing agent file', () => {
  it('says no such file and names the closest .ai file, with run and with the shorthand', async () => {
    const { ws, run, server } = await scriptedAgent([]);
    ws.write('summarize.ai', agentFile('models: test/scripted-model'));
    for (const args of [
      ['run', 'aks.ai', 'Hello'],
      ['aks.ai', 'Hello'],
    ]) {
      const result = await run(args);
      expect(result.code, result.stderr).toBe(7);
      expect(result.stderr).toBe('agent: no such file: aks.ai; did you mean ask.ai?\n');
      expect(result.stdout).toBe('');
    }
    const far = await run(['run', `${ws.dir}/zzzzzzzz.ai`, 'Hello']);
    expect(far.code).toBe(7);
    expect(far.stderr).toContain(
      `no such file: ${ws.dir}/zzzzzzzz.ai; the .ai files in ${ws.dir}: ask.ai, summarize.ai`,
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('--help', () => {
  it('lists the exit codes, the environment variables and examples', async () => {
    for (const args of [['--help'], ['run', '--help']]) {
      const result = await runCli(args);
      expect(result.code).toBe(0);
      const help = result.stdout;
      expect(help).toMatch(/^Exit codes:$/m);
      for (const code of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 130, 143])
        expect(help).toMatch(new RegExp(`^  ${code} +\\S`, 'm'));
      expect(help).toMatch(/^Environment:$/m);
      for (const name of ['XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'NO_COLOR', 'TMPDIR', 'AGENT_EXAMPLES_DIR'])
        expect(help).toContain(name);
      expect(help).toMatch(/^Examples:\n {2}agent .+\n {2}.*agent .+$/m);
    }
  });
});
