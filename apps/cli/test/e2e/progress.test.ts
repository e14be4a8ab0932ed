import { afterAll, describe, expect, it } from 'vitest';
import { requires } from '../../../../tooling/vitest/skip.js';
import {
  agentFile,
  inTmux,
  isolatedEnv,
  removeWorkspaces,
  report,
  runCli,
  type Step,
  scriptedServer,
  waitFor,
  workspace,
} from './helpers.js';

afterAll(removeWorkspaces);

/** Turn 1 reports progress through the internal status tool; turn 2 hands in the report. */
function twoTurns(reportDelayMs: number): Step[] {
  return [
    () => ({
      toolCalls: [
        { name: 'agent__task_status', arguments: { status: 'in-progress', now: 'reading the question' } },
      ],
      usage: { inputTokens: 1200, outputTokens: 30 },
    }),
    (request, nonce) => ({ ...report('The answer is 42.')(request, nonce), delayMs: reportDelayMs }),
  ];
}

async function twoTurnWorkspace(reportDelayMs: number) {
  const server = await scriptedServer(twoTurns(reportDelayMs));
  const ws = workspace(server, { 'ask.ai': agentFile('models: test/scripted-model\nmaxTurns: 4') });
  return { server, ws };
}

describe('live progress on a terminal (tmux)', requires('tmux'), () => {
  it('shows the turn, tokens and model while the model works, and clears it at the end', async () => {
    const { server, ws } = await twoTurnWorkspace(3_000);
    const pane = inTmux(ws, ['run', 'ask.ai', 'What is the answer?']);
    try {
      // Turn 2's request is held by the model for 3 s: the line shows turn 1's tokens by then.
      await waitFor(
        () => server.calls === 2 && /turn 2 \| \d+s \| 1200 in \/ 30 out tok/.test(pane.screen()),
      );
      expect(pane.screen()).toContain('test:scripted-model');
      await waitFor(() => pane.screen().includes('EXIT='));
      const done = pane.screen();
      expect(done).toContain('The answer is 42.');
      expect(done).toContain('EXIT=0');
      // Cleared in place: nothing of the status line stays on the screen.
      expect(done).not.toMatch(/turn \d+ \|/);
    } finally {
      pane.close();
    }
  });

  it('--quiet draws no progress at all', async () => {
    const { server, ws } = await twoTurnWorkspace(2_000);
    const pane = inTmux(ws, ['run', 'ask.ai', 'What is the answer?', '--quiet']);
    try {
      await waitFor(() => server.calls === 2);
      // The model holds the second answer for 2 s; a status line would be drawn by now.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(pane.screen()).not.toMatch(/turn \d+ \||starting \|/);
      await waitFor(() => pane.screen().includes('EXIT='));
      expect(pane.screen()).toContain('The answer is 42.');
      expect(pane.screen()).toContain('EXIT=0');
    } finally {
      pane.close();
    }
  });
});

describe('progress when stderr is not a terminal', () => {
  async function run(extra: string[]) {
    const { ws } = await twoTurnWorkspace(0);
    return runCli(['run', 'ask.ai', 'What is the answer?', '--config', ws.file('agent.json'), ...extra], {
      cwd: ws.dir,
      env: isolatedEnv(ws),
    });
  }

  it('--progress writes one line per turn with the totals so far', async () => {
    const result = await run(['--progress', '--max-turns', '3']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('The answer is 42.');
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('agent: turn'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^agent: turn 1\/3 \| \d+s \| 1200 in \/ 30 out tok \| test:scripted-model$/);
    expect(lines[1]).toMatch(/^agent: turn 2\/3 \| \d+s \| 1300 in \/ 50 out tok \| test:scripted-model$/);
    // Nothing drawn in place: a log file gets no carriage returns or escape codes.
    expect(result.stderr).not.toContain('\r');
    expect(result.stderr).not.toContain('\u001b');
  });

  it('no progress lines without --progress, nor with --quiet', async () => {
    for (const extra of [[], ['--progress', '--quiet']]) {
      const result = await run(extra);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('The answer is 42.');
      expect(result.stderr).not.toContain('agent: turn');
    }
  });
});
