import { afterAll, describe, expect, it } from 'vitest';
import { agentFile, isolatedEnv, removeWorkspaces, runCli, workspace } from './helpers.js';

afterAll(removeWorkspaces);

// No model is called here: the server URL only has to look like one.
const server = { url: 'http://127.0.0.1:9' };

describe('agent validate', () => {
  it('accepts a good file with its sub-agent and exits 0', async () => {
    const ws = workspace(server, {
      'helper.ai': agentFile('description: Summarises text\nmodels: test/small\noutput: text'),
      'main.ai': agentFile(
        'description: The main agent\nmodels: test/big\nagents: helper.ai\noutput: markdown',
      ),
    });
    const result = await runCli(['validate', ws.file('main.ai'), '--config', ws.file('agent.json')], {
      cwd: ws.dir,
      env: isolatedEnv(ws),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('ok');
    expect(result.stdout).toContain('main.ai');
    expect(result.stderr).toBe('');
  });

  it('prints each problem as file:line and exits 7', async () => {
    const ws = workspace(server, {
      'bad.ai': agentFile('models: test/big\nmaxTurns: -1'),
      'orphan.ai': agentFile('models: test/big\nagents: missing-child.ai'),
      'good.ai': agentFile('models: test/big'),
    });
    const files = ['bad.ai', 'orphan.ai', 'good.ai'].map((name) => ws.file(name));
    const result = await runCli(['validate', ...files, '--config', ws.file('agent.json')], {
      cwd: ws.dir,
      env: isolatedEnv(ws),
    });
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/bad\.ai:4: .*maxTurns/);
    expect(result.stderr).toMatch(/orphan\.ai:\d+: .*missing-child\.ai/);
    expect(result.stdout).toMatch(/^ok .*good\.ai/);
  });

  it('shows the orchestration of each agent in the order its stages run, and a cycle as a located error', async () => {
    const ws = workspace(server, {
      'triage.ai': agentFile(
        'models: test/big\nadvisors: [./history.ai]\nrouter: { destinations: [./billing.ai, ./tech.ai] }\nhandoff: ./formatter.ai',
      ),
      'history.ai': agentFile('models: test/small'),
      'billing.ai': agentFile('models: test/small'),
      'tech.ai': agentFile('models: test/small\nhandoff: ./formatter.ai'),
      'formatter.ai': agentFile('models: test/small'),
      'loop.ai': agentFile('models: test/big\nhandoff: ./back.ai'),
      'back.ai': agentFile('models: test/big\nadvisors: [./loop.ai]'),
    });
    const options = { cwd: ws.dir, env: isolatedEnv(ws) };
    const good = await runCli(['validate', ws.file('triage.ai'), '--config', ws.file('agent.json')], options);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout.split('\n').slice(1)).toEqual([
      '  triage: [advisors: history] -> triage -> [router: billing | tech] -> [handoff: formatter]',
      '  tech: tech -> [handoff: formatter]',
      '',
    ]);
    const json = await runCli(
      ['validate', ws.file('triage.ai'), '--json', '--config', ws.file('agent.json')],
      options,
    );
    expect(JSON.parse(json.stdout)[0].orchestration).toEqual({
      triage: { advisors: ['history'], router: ['billing', 'tech'], handoff: 'formatter' },
      tech: { advisors: [], handoff: 'formatter' },
    });
    const cycle = await runCli(['validate', ws.file('loop.ai'), '--config', ws.file('agent.json')], options);
    expect(cycle.code).toBe(7);
    expect(cycle.stderr).toContain(
      'back.ai:4: agent cycle: loop.ai -[handoff]-> back.ai -[advisor]-> loop.ai',
    );
  });

  it('gives the verdicts as JSON with --json', async () => {
    const ws = workspace(server, { 'ok.ai': agentFile('models: test/big') });
    const result = await runCli(['validate', ws.file('ok.ai'), '--json', '--config', ws.file('agent.json')], {
      cwd: ws.dir,
      env: isolatedEnv(ws),
    });
    expect(result.code, result.stderr).toBe(0);
    const verdicts = JSON.parse(result.stdout) as { ok: boolean; problems: unknown[] }[];
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]).toMatchObject({ ok: true, problems: [] });
  });
});

describe('agent list', () => {
  it('shows the providers of the config and the .ai files of the cwd', async () => {
    const ws = workspace(server, {
      'alpha.ai': agentFile('description: First agent\nmodels: test/one'),
      'beta.ai': agentFile('description: Second agent\nmodels: spare/two\noutput: json'),
    });
    const result = await runCli(['list', '--config', ws.file('agent.json')], {
      cwd: ws.dir,
      env: isolatedEnv(ws),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('test (openai-compatible)');
    expect(result.stdout).toContain('spare (openai-compatible)');
    expect(result.stdout).toContain('First agent');
    expect(result.stdout).toContain('Second agent');
    expect(result.stdout).toMatch(/models: spare\/two/);
    expect(result.stdout).toMatch(/output: json/);
  });

  it('describes only the --agent files, as JSON with --json', async () => {
    const ws = workspace(server, {
      'alpha.ai': agentFile('description: First agent\nmodels: test/one'),
      'beta.ai': agentFile('description: Second agent\nmodels: test/two'),
    });
    const result = await runCli(
      ['list', '--agent', ws.file('beta.ai'), '--json', '--config', ws.file('agent.json')],
      {
        cwd: ws.dir,
        env: isolatedEnv(ws),
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const listing = JSON.parse(result.stdout) as {
      config: { providers: { name: string }[] };
      agents: { description?: string }[];
    };
    expect(listing.config.providers.map((provider) => provider.name).sort()).toEqual(['spare', 'test']);
    expect(listing.agents.map((agent) => agent.description)).toEqual(['Second agent']);
  });

  it('shows advisors, router destinations and handoff under each agent', async () => {
    const ws = workspace(server, {
      'main.ai': agentFile(
        'description: Routes support questions\nmodels: test/one\nadvisors: [./facts.ai]\nrouter: [./billing.ai]\nhandoff: ./polish.ai',
      ),
      'facts.ai': agentFile('models: test/one'),
      'billing.ai': agentFile('models: test/one'),
      'polish.ai': agentFile('models: test/one'),
    });
    const result = await runCli(['list', '--agent', ws.file('main.ai'), '--config', ws.file('agent.json')], {
      cwd: ws.dir,
      env: isolatedEnv(ws),
    });
    expect(result.code, result.stderr).toBe(0);
    const agents = result.stdout.slice(result.stdout.indexOf('Agents:'));
    expect(agents).toContain(
      [
        '  main  main.ai',
        '    Routes support questions',
        '    models: test/one',
        '    tools: (none)',
        '    advisors: facts',
        '    router: billing',
        '    handoff: polish',
        '    output: markdown',
      ].join('\n'),
    );
    // The files it names are described too.
    expect(agents).toMatch(/ {2}facts {2}facts\.ai/);
    expect(agents).toMatch(/ {2}polish {2}polish\.ai/);
  });

  it('exits 7 for an invalid config', async () => {
    const ws = workspace(undefined, { 'alpha.ai': agentFile('models: test/one') });
    ws.write('agent.json', '{\n  "providers": {\n    "test": { "type": "no-such-type" }\n  }\n}\n');
    const result = await runCli(['list', '--config', ws.file('agent.json')], {
      cwd: ws.dir,
      env: isolatedEnv(ws),
    });
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/agent\.json:3/);
  });
});
