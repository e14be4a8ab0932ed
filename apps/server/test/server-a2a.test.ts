import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  a2aClient,
  artifactValues,
  asTask,
  dataPart,
  send,
  stateOf,
  statusData,
  textPart,
} from '@agent/testkit/a2a';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AgentDir,
  agentDir,
  finalReport,
  helperApprovalModel,
  lastUserText,
  type RunningServer,
  SERVER_BIN,
  sample,
  serverEnv,
  startServer,
  writeHelperApprovalAgents,
} from './helpers.js';

const dirs: AgentDir[] = [];
const servers: RunningServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.child.kill('SIGKILL');
    await server.exited;
  }
  for (const dir of dirs.splice(0)) await dir.close();
});

async function makeDir(...args: Parameters<typeof agentDir>): Promise<AgentDir> {
  const dir = await agentDir(...args);
  dirs.push(dir);
  return dir;
}

async function serve(args: string[], dir: AgentDir, headends = 1): Promise<RunningServer> {
  const server = await startServer(args, dir.dir, headends);
  servers.push(server);
  return server;
}

describe('agent-server --a2a', () => {
  it("serves each agent card (skill examples from the file's usage) and answers SendMessage with the report as an artifact", async () => {
    const dir = await makeDir((request) => ({
      text: finalReport(`echo: ${lastUserText(request.messages)}`),
    }));
    writeFileSync(
      dir.files[0]!,
      '---\ndescription: The echo agent.\nusage: Say anything and it is said back.\nmodels: [local/m]\n---\nYou are echo.\n',
    );
    const server = await serve(
      ['--agent', dir.files[0]!, '--a2a', '0', '--token', 'tok-1', '--metrics', '0'],
      dir,
      2,
    );
    const face = server.urls.a2a!;
    expect(face).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/a2a$/);
    // The card is public by default: no token needed to discover the agent.
    const cardResponse = await fetch(`${face}/echo/.well-known/agent-card.json`);
    expect(cardResponse.status).toBe(200);
    const card = (await cardResponse.json()) as {
      name: string;
      description: string;
      skills: { examples: string[] }[];
      securitySchemes: Record<string, unknown>;
    };
    expect(card).toMatchObject({ name: 'echo', description: 'The echo agent.' });
    expect(card.skills[0]?.examples).toContain('Say anything and it is said back.');
    expect(Object.keys(card.securitySchemes)).not.toEqual([]);
    const client = await a2aClient(face, 'echo', 'tok-1');
    const task = asTask(await client.sendMessage(send([textPart('hello there')])));
    expect(stateOf(task)).toBe('TASK_STATE_COMPLETED');
    expect(artifactValues(task)).toEqual(['echo: hello there']);
    expect(dir.model.requests.length).toBe(1);
    // The face's admission is watched like every face's, under its name.
    const metrics = await (await fetch(server.urls.metrics!)).text();
    expect(sample(metrics, 'agent_queue_in_use', { headend: 'a2a' })).toBe(0);
    expect(sample(metrics, 'agent_sessions_total', { agent: 'echo', exit_code: 'EXIT-FINAL-ANSWER' })).toBe(
      1,
    );
  }, 60_000);

  it('refuses calls without a valid token (401) and runs nothing', async () => {
    const dir = await makeDir(() => ({ text: finalReport('never') }));
    const server = await serve(['--agent', dir.files[0]!, '--a2a', '0', '--token', 'tok-1'], dir);
    const face = server.urls.a2a!;
    for (const token of [undefined, 'wrong-token']) {
      const client = await a2aClient(face, 'echo', token);
      await expect(client.sendMessage(send([textPart('hi')]))).rejects.toThrow(/401|token|unauthori[sz]ed/i);
    }
    const raw = await fetch(`${face}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: {} }),
    });
    expect(raw.status).toBe(401);
    expect(dir.model.requests.length).toBe(0);
  }, 60_000);

  it('a task paused for approval survives a SIGKILL of the face: GetTask and the approval follow-up work on a new process', async () => {
    const dir = await makeDir(helperApprovalModel);
    writeHelperApprovalAgents(dir);
    const args = [
      '--agent',
      dir.files[0]!,
      '--a2a',
      '0',
      '--api',
      '0',
      '--token',
      'tok-1',
      '--token',
      'tok-2',
    ];
    const first = await serve(args, dir, 2);
    const paused = asTask(
      await (await a2aClient(first.urls.a2a!, 'echo', 'tok-1')).sendMessage(send([textPart('Greet me.')])),
    );
    expect(stateOf(paused)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(statusData(paused)).toEqual([
      { pendingApprovals: [expect.objectContaining({ callId: 'call_h1', tool: 'agent__helper' })] },
    ]);
    // Task id = session id: the REST face shows the same session waiting.
    const origin = new URL(first.urls.rest!).origin;
    const session = await fetch(`${origin}/v1/sessions/${paused.id}`, {
      headers: { authorization: 'Bearer tok-1' },
    });
    expect(await session.json()).toMatchObject({
      status: 'awaiting_approval',
      pendingApprovals: [{ callId: 'call_h1' }],
    });
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await serve(args, dir, 2);
    const client = await a2aClient(second.urls.a2a!, 'echo', 'tok-1');
    const read = await client.getTask({ id: paused.id, historyLength: 0, tenant: '' });
    expect(stateOf(read)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(read.contextId).toBe(paused.contextId);
    // Another client's token cannot read or decide it: to it the task does not exist.
    const other = await a2aClient(second.urls.a2a!, 'echo', 'tok-2');
    await expect(other.getTask({ id: paused.id, historyLength: 0, tenant: '' })).rejects.toThrow(
      /not found/i,
    );
    await expect(
      other.sendMessage(send([dataPart({ decisions: { call_h1: { approved: true } } })], paused)),
    ).rejects.toThrow(/not found/i);
    expect(dir.model.requests.length).toBe(1);
    const decided = asTask(
      await client.sendMessage(send([dataPart({ decisions: { call_h1: { approved: true } } })], paused)),
    );
    expect(stateOf(decided)).toBe('TASK_STATE_COMPLETED');
    expect(decided.id).toBe(paused.id);
    expect(artifactValues(decided)).toEqual(['The helper said hi.']);
    // The pause, the helper, the report: nothing ran twice.
    expect(dir.model.requests.length).toBe(3);
  }, 90_000);

  it('refuses bad a2a values in server.json with the key and what is allowed (exit 2)', async () => {
    const dir = await makeDir(() => ({ text: finalReport('never') }));
    const run = (a2a: unknown) => {
      const config = join(dir.dir, 'server.json');
      writeFileSync(config, JSON.stringify({ agents: [dir.files[0]], tokens: ['t'], a2a }));
      return spawnSync(process.execPath, [SERVER_BIN, '--config', config], {
        cwd: dir.dir,
        env: serverEnv(dir.dir),
        encoding: 'utf8',
        timeout: 30_000,
      });
    };
    const badUrl = run({ port: 0, publicUrl: 'agents.example.com' });
    expect(badUrl.status).toBe(2);
    expect(badUrl.stderr).toMatch(
      /"a2a\.publicUrl" must be an absolute http\(s\) URL like https:\/\/agents\.example\.com .*not "agents\.example\.com"/,
    );
    const unknown = run({ port: 0, cards: 'public' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(
      /unknown key "a2a\.cards" \(allowed: port, publicUrl, publicCard, legacy, maxTasks, provider\)/,
    );
    const tasks = run({ port: 0, maxTasks: 0 });
    expect(tasks.status).toBe(2);
    expect(tasks.stderr).toMatch(/"a2a\.maxTasks" must be an integer from 1 to 1000000, not 0/);
    expect(dir.model.requests.length).toBe(0);
  }, 60_000);
});
