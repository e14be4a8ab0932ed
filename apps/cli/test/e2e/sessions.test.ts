import type { ScriptedAnswer } from '@agent/testkit';
import { afterAll, expect, test } from 'vitest';
import {
  agentFile,
  isolatedEnv,
  removeWorkspaces,
  report,
  runCli,
  type Step,
  scriptedServer,
  spawnCli,
  waitFor,
  workspace,
} from './helpers.js';

afterAll(removeWorkspaces);

// Issue 16 through the CLI: a run that waits for approval pauses (exit 10) and `agent resume`
// continues it; a CLI killed with SIGKILL mid-session continues from its last checkpoint.
const callHelper: Step = () => ({
  text: 'Asking the helper.',
  toolCalls: [{ id: 'call_h1', name: 'agent__helper', arguments: { prompt: 'say hi' } }],
});

async function helperWorkspace(steps: Step[], approval: boolean) {
  const server = await scriptedServer(steps);
  const ws = workspace(server, {
    'main.ai': agentFile(
      `models: test/scripted-model\nagents: [helper.ai]${approval ? '\napproval:\n  tools: [agent__helper]' : ''}`,
    ),
    'helper.ai': agentFile('models: test/scripted-model\ndescription: Says hi'),
    'other.ai': agentFile('models: test/scripted-model\nagents: [helper.ai]'),
  });
  const cli = (args: string[]) =>
    runCli([...args, '--config', ws.file('agent.json')], { cwd: ws.dir, env: isolatedEnv(ws) });
  return { server, ws, cli };
}

test('without a terminal a call that needs approval pauses the run (exit 10); agent resume --approve finishes it', async () => {
  const { server, cli } = await helperWorkspace(
    [callHelper, report('hi', { format: 'sub-agent' }), report('The helper said hi.')],
    true,
  );
  const paused = await cli(['run', 'main.ai', 'Greet me.', '--session-id', 'greet-1']);
  expect(paused.code).toBe(10);
  expect(paused.stdout).toBe('');
  expect(paused.stderr).toContain(
    'agent: EXIT-AWAITING-APPROVAL: session greet-1 waits for 1 tool call (exit 10):',
  );
  expect(paused.stderr).toContain('  call_h1  agent__helper {"prompt":"say hi"}');
  expect(paused.stderr).toContain('agent resume greet-1 --approve call_h1');
  expect(server.calls).toBe(1);

  const notPending = await cli(['resume', 'greet-1', '--approve', 'call_zz']);
  expect(notPending.code).toBe(7);
  expect(notPending.stderr).toContain('"call_zz" is not a pending call; session greet-1 waits for call_h1');

  const resumed = await cli(['resume', 'greet-1', '--approve', 'call_h1']);
  expect(resumed.stderr).toBe('');
  expect(resumed.code).toBe(0);
  expect(resumed.stdout).toContain('The helper said hi.');
  expect(server.calls).toBe(3);

  const unknown = await cli(['resume', 'no-such-session']);
  expect(unknown.code).toBe(7);
  expect(unknown.stderr).toContain('no session "no-such-session" in the session store');
});

test('agent resume --deny --reason: the model is told the reason', async () => {
  let seen = '';
  const reportAfterDenial: Step = (request, nonce) => {
    seen = request.messages
      .filter((m) => m.role === 'tool')
      .map((m) => m.content)
      .join('\n');
    return report('No greeting then.')(request, nonce);
  };
  const { cli } = await helperWorkspace([callHelper, reportAfterDenial], true);
  expect((await cli(['run', 'main.ai', 'Greet me.', '--session-id', 'greet-2'])).code).toBe(10);
  const denied = await cli(['resume', 'greet-2', '--deny', 'call_h1', '--reason', 'no greetings today']);
  expect(denied.code).toBe(0);
  expect(seen).toBe('(tool failed: a person denied this call: no greetings today)');
});

test('agent resume --agent with another file exits 7 naming both agents; the session still resumes with its own file', async () => {
  const { server, cli } = await helperWorkspace(
    [callHelper, report('hi', { format: 'sub-agent' }), report('The helper said hi.')],
    true,
  );
  expect((await cli(['run', 'main.ai', 'Greet me.', '--session-id', 'mixed-1'])).code).toBe(10);
  const refused = await cli(['resume', 'mixed-1', '--agent', 'other.ai', '--approve', 'call_h1']);
  expect(refused.code).toBe(7);
  expect(refused.stderr).toContain(
    'the snapshot of session mixed-1 was taken with other agent settings (agent "main"',
  );
  expect(refused.stderr).toContain('this agent "other"');
  expect(server.calls).toBe(1);
  const resumed = await cli(['resume', 'mixed-1', '--approve', 'call_h1']);
  expect(resumed.code).toBe(0);
  expect(resumed.stdout).toContain('The helper said hi.');
  expect(server.calls).toBe(3);
});

test('kill -9 mid-session, then agent resume <id>: it continues from the last checkpoint and the turn in flight runs again', async () => {
  let release: (() => void) | undefined;
  const hang: Step = () =>
    new Promise<ScriptedAnswer>((resolve) => {
      release = () => resolve({ text: 'too late' });
    }) as unknown as ScriptedAnswer;
  const requests: string[][] = [];
  const track =
    (step: Step): Step =>
    (request, nonce) => {
      requests.push(request.messages.map((m) => m.role));
      return step(request, nonce);
    };
  const { ws } = await helperWorkspace(
    [
      track(callHelper),
      track(report('hi', { format: 'sub-agent' })),
      track(hang),
      track(report('Resumed: the helper said hi.')),
    ],
    false,
  );
  const { child, done } = spawnCli(
    ['run', 'main.ai', 'Greet me.', '--session-id', 'crash-1', '--config', ws.file('agent.json')],
    {
      cwd: ws.dir,
      env: isolatedEnv(ws),
    },
  );
  // Turn 1 (the helper ran) is checkpointed; turn 2's model call hangs: kill the CLI there.
  await waitFor(() => requests.length === 3);
  child.kill('SIGKILL');
  const killed = await done;
  expect(killed.code).toBe(null);
  const resumed = await runCli(['resume', 'crash-1', '--config', ws.file('agent.json')], {
    cwd: ws.dir,
    env: isolatedEnv(ws),
  });
  release?.();
  expect(resumed.stderr).toBe('');
  expect(resumed.code).toBe(0);
  expect(resumed.stdout).toContain('Resumed: the helper said hi.');
  // The helper did not run again: the resumed request is turn 2's, with turn 1's tool result.
  expect(requests).toHaveLength(4);
  expect(requests[3]).toEqual(requests[2]);
});
