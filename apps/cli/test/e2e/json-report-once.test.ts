import type { AgentResult } from '@agent/protocol';
import { afterAll, expect, it } from 'vitest';
import {
  agentFile,
  isolatedEnv,
  removeWorkspaces,
  report,
  runCli,
  scriptedServer,
  workspace,
} from './helpers.js';

afterAll(removeWorkspaces);

it('--json writes the final report once (the conversation refers to it)', async () => {
  const body = 'a line of the long report\n'.repeat(2000);
  const server = await scriptedServer([report(body)]);
  const ws = workspace(server, { 'ask.ai': agentFile('models: test/scripted-model\nmaxTurns: 2') });
  const result = await runCli(['run', ws.file('ask.ai'), 'Go', '--json', '--config', ws.file('agent.json')], {
    cwd: ws.dir,
    env: isolatedEnv(ws),
  });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout.split('a line of the long report').length - 1).toBe(2000);
  const parsed = JSON.parse(result.stdout) as AgentResult;
  expect(parsed.finalReport?.content).toBe(body);
  expect(parsed.conversation.at(-1)?.content).toContain('[the final report: see finalReport]');
});
