import { afterAll, expect, test } from 'vitest';
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

// Issue 16 at a real terminal (tmux): a tool call that needs approval is asked y/n with the tool
// and its arguments; y runs it, n and a reason deny it (the model reads the reason), and no
// answer within --approval-timeout denies it with a reason saying so.

const callHelper: Step = () => ({
  text: 'Asking the helper.',
  toolCalls: [{ id: 'call_h1', name: 'agent__helper', arguments: { prompt: 'say hi' } }],
});

/** A step that keeps the tool messages the model got, then reports. */
function reportSeeing(seen: string[], body: string): Step {
  return (request, nonce) => {
    seen.push(
      ...request.messages.filter((m) => m.role === 'tool').map((m) => (m as { content: string }).content),
    );
    return report(body)(request, nonce);
  };
}

async function helperWorkspace(steps: Step[]) {
  const server = await scriptedServer(steps);
  const ws = workspace(server, {
    'main.ai': agentFile(
      'models: test/scripted-model\nagents: [helper.ai]\napproval:\n  tools: [agent__helper]',
    ),
    'helper.ai': agentFile('models: test/scripted-model\ndescription: Says hi'),
  });
  return { server, ws };
}

test(
  'on a terminal (tmux) the CLI asks y/n with the tool and its arguments; y runs the call',
  requires('tmux'),
  async () => {
    const { server, ws } = await helperWorkspace([
      callHelper,
      report('hi', { format: 'sub-agent' }),
      report('Approved at the terminal.'),
    ]);
    const term = inTmux(ws, ['run', 'main.ai', 'Greet me.']);
    try {
      await waitFor(() => term.screen().includes('[y/N]'));
      expect(term.screen()).toContain('agent: allow agent__helper {"prompt":"say hi"}? [y/N]');
      expect(server.calls).toBe(1);
      term.type('y', 'Enter');
      await waitFor(() => term.screen().includes('EXIT='));
      expect(term.screen()).toContain('Approved at the terminal.');
      expect(term.screen()).toContain('EXIT=0');
      expect(server.calls).toBe(3);
    } finally {
      term.close();
    }
  },
);

test(
  'on a terminal, n and a reason deny the call: it never runs and the model gets the reason',
  requires('tmux'),
  async () => {
    const seen: string[] = [];
    const { server, ws } = await helperWorkspace([callHelper, reportSeeing(seen, 'No greeting then.')]);
    const term = inTmux(ws, ['run', 'main.ai', 'Greet me.']);
    try {
      await waitFor(() => term.screen().includes('[y/N]'));
      term.type('n', 'Enter');
      await waitFor(() => term.screen().includes('agent: reason for the model (Enter for none):'));
      term.type('-l', 'not on a Friday');
      term.type('Enter');
      await waitFor(() => term.screen().includes('EXIT='));
      expect(term.screen()).toContain('No greeting then.');
      expect(term.screen()).toContain('EXIT=0');
      // The helper never ran (no model call of its own): the main agent's two calls only.
      expect(server.calls).toBe(2);
      expect(seen).toEqual(['(tool failed: a person denied this call: not on a Friday)']);
    } finally {
      term.close();
    }
  },
);

test(
  'on a terminal, no answer within --approval-timeout denies the call with a reason saying it timed out',
  requires('tmux'),
  async () => {
    const seen: string[] = [];
    const { server, ws } = await helperWorkspace([callHelper, reportSeeing(seen, 'Nobody answered.')]);
    const term = inTmux(ws, ['run', 'main.ai', 'Greet me.', '--approval-timeout', '2s']);
    try {
      await waitFor(() => term.screen().includes('[y/N]'));
      // Nobody types: the question is given up, the call denied, and the run goes on.
      await waitFor(() => term.screen().includes('EXIT='));
      expect(term.screen()).toContain(
        'agent: no answer in time: agent__helper is denied (--approval-timeout)',
      );
      expect(term.screen()).toContain('Nobody answered.');
      expect(term.screen()).toContain('EXIT=0');
      expect(server.calls).toBe(2);
      expect(seen).toEqual(['(tool failed: a person denied this call: no decision within 2 s)']);
    } finally {
      term.close();
    }
  },
);

test('--approval-timeout takes a duration from 1 ms to 7 days; anything else is a usage error naming what is allowed', async () => {
  const { ws } = await helperWorkspace([]);
  for (const bad of ['soon', '0', '8d']) {
    const run = await runCli(
      ['run', 'main.ai', 'Greet me.', '--approval-timeout', bad, '--config', ws.file('agent.json')],
      { cwd: ws.dir, env: isolatedEnv(ws) },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `--approval-timeout: '${bad}' is not a duration from 1 ms to 7d; allowed: a number of milliseconds or a duration such as 500ms, 30s, 5m, 1h, 1d, 1w`,
    );
  }
});
