// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} text.
import { afterAll, describe, expect, it } from 'vitest';
import { legacyDirectory } from './ai-agent-fixture.js';
import { AI_AGENT_BIN, isolatedEnv, removeWorkspaces, report, runCli, scriptedAgent } from './helpers.js';

afterAll(removeWorkspaces);

// The `ai-agent` bin with the flags of ai-agent's CLI pages, and `agent run --override` /
// inline `--schema`, run as child processes against the testkit server.

describe('ai-agent', () => {
  it('runs a #!/usr/bin/env ai-agent file with ai-agent flags against a legacy directory', async () => {
    const { server, ws } = await legacyDirectory([report('legacy answer')]);
    const result = await runCli(['main.ai', 'hello there', '--temperature', '0.3', '--top-p', 'none'], {
      bin: AI_AGENT_BIN,
      cwd: ws.dir,
      env: isolatedEnv(ws),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('legacy answer');
    const body = server.requests[0]!.body as Record<string, unknown> & {
      messages: { role: string; content: string }[];
    };
    expect(body.temperature).toBe(0.3);
    expect(body).not.toHaveProperty('top_p');
    expect(body.messages[0]).toEqual({
      role: 'system',
      content: expect.stringMatching(new RegExp(`^Work in ${ws.dir} within 3 turns\\.`)),
    });
    expect(result.stderr).not.toContain('sk-cli-legacy');
  });

  it('--agent, --models, --override and an inline --schema', async () => {
    const { server, ws } = await legacyDirectory([report('{"answer":"42"}', { format: 'json' })]);
    const result = await runCli(
      [
        '--agent',
        'main.ai',
        '--models',
        'nova/other-model',
        '--override',
        'temperature=0.1',
        '--schema',
        '{"type":"object","properties":{"answer":{"type":"string"}},"required":["answer"]}',
        'what is it?',
      ],
      { bin: AI_AGENT_BIN, cwd: ws.dir, env: isolatedEnv(ws) },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ answer: '42' });
    expect(server.requests[0]!.body).toMatchObject({ model: 'other-model', temperature: 0.1 });
  });

  it('--dry-run validates without calling the model and names the section not active yet', async () => {
    const { server, ws } = await legacyDirectory([]);
    const result = await runCli(['--agent', 'main.ai', '--dry-run'], {
      bin: AI_AGENT_BIN,
      cwd: ws.dir,
      env: isolatedEnv(ws),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^ok main\.ai/m);
    expect(result.stderr).toMatch(
      /^warning: \.ai-agent\.json:1: section `telemetry` is not active in this runtime yet/m,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('--list-tools lists each tool (server, name, description) after every filter, calling no model', async () => {
    const { server, ws } = await legacyDirectory([]);
    ws.write(
      '.ai-agent.json',
      JSON.stringify({
        providers: {
          nova: {
            type: 'openai-compatible',
            baseUrl: '${NOVA_URL}',
            apiKey: '${NOVA_KEY}',
            toolsDenied: ['agent__secretive'],
          },
        },
        mcpServers: { files: { type: 'local', command: ['agent-fs-mcp', '.'], toolsDenied: ['Grep'] } },
      }),
    );
    ws.write('data.txt', 'x\n');
    ws.write(
      'lister.ai',
      [
        '---',
        'models: nova/gpt-oss',
        'tools: [files]',
        'agents: [./helper.ai, ./secretive.ai]',
        '---',
        'List.',
        '',
      ].join('\n'),
    );
    ws.write('helper.ai', '---\nmodels: nova/gpt-oss\ndescription: Helps with\n  two lines\n---\nHelp.\n');
    ws.write('secretive.ai', '---\nmodels: nova/gpt-oss\ndescription: Hidden by the provider\n---\nNo.\n');
    const result = await runCli(['--agent', 'lister.ai', '--list-tools'], {
      bin: AI_AGENT_BIN,
      cwd: ws.dir,
      env: isolatedEnv(ws),
    });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SERVER\s+TOOL\s+DESCRIPTION$/);
    const rows = lines.slice(1).map((line) => line.split(/\s{2,}/));
    expect(rows.map((row) => [row[0], row[1]])).toEqual([
      ['files', 'files__Read'],
      ['files', 'files__ListDir'],
      ['files', 'files__Find'],
      ['agent', 'agent__helper'],
    ]);
    expect(rows[0]![2]).toMatch(/^Read a text file as numbered lines/);
    expect(rows[3]![2]).toBe('Helps with two lines');
    expect(result.stdout).not.toMatch(/Grep|secretive/);
    expect(server.requests).toHaveLength(0);
  });

  it('--list-tools with a server that cannot start warns on stderr and exits 6 (its tools are missing)', async () => {
    const { ws } = await legacyDirectory([]);
    ws.write(
      '.ai-agent.json',
      JSON.stringify({
        providers: { nova: { type: 'openai-compatible', baseUrl: '${NOVA_URL}', apiKey: '${NOVA_KEY}' } },
        mcpServers: { broken: { type: 'stdio', command: process.execPath, args: ['-e', 'process.exit(1)'] } },
      }),
    );
    ws.write('lister.ai', '---\nmodels: nova/gpt-oss\ntools: [broken]\n---\nList.\n');
    const result = await runCli(['--agent', 'lister.ai', '--list-tools'], {
      bin: AI_AGENT_BIN,
      cwd: ws.dir,
      env: isolatedEnv(ws),
    });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^warning: MCP server "broken" was not started/m);
    expect(result.stdout).toBe('(no tools)\n');
  });

  it('a bad setting flag is a configuration error naming the flag and what is allowed', async () => {
    const { ws } = await legacyDirectory([]);
    const result = await runCli(['main.ai', 'hi', '--override', 'temprature=0.1'], {
      bin: AI_AGENT_BIN,
      cwd: ws.dir,
      env: isolatedEnv(ws),
    });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('--override: unknown key `temprature`; did you mean `temperature`?');
  });
});

describe('agent run --override and an inline --schema', () => {
  it('the override reaches the request; the inline schema makes the report json', async () => {
    const { server, run, file } = await scriptedAgent([report('{"n":1}', { format: 'json' })]);
    const result = await run([
      'run',
      file,
      'count',
      '--override',
      'temperature=0.2',
      '--override',
      'maxOutputTokens=none',
      '--schema',
      '{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ n: 1 });
    const body = server.requests[0]!.body as Record<string, unknown>;
    expect(body.temperature).toBe(0.2);
    expect(body).not.toHaveProperty('max_tokens');
  });

  it('--override without = is a usage error', async () => {
    const { run, file } = await scriptedAgent([]);
    const result = await run(['run', file, 'x', '--override', 'temperature']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--override: 'temperature' is not key=value");
  });

  it('--override stream=false and cache=1h are honoured', async () => {
    const { server, run, file } = await scriptedAgent([report('whole answer')]);
    const first = await run(['run', file, 'same', '--override', 'stream=false', '--override', 'cache=1h']);
    expect(first.code, first.stderr).toBe(0);
    expect((server.requests[0]!.body as Record<string, unknown>).stream).toBe(false);
    const second = await run(['run', file, 'same', '--override', 'stream=false', '--override', 'cache=1h']);
    expect(second.stdout).toContain('whole answer');
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['no-batch=true', 'the batch tool cannot be turned off on its own here'],
    ['no-progress=true', 'agent__task_status cannot be limited here'],
    ['interleaved=true', 'interleaved reasoning is a property of a model here'],
    ['mcpInitConcurrency=2', "an agent's MCP servers are always started at once here"],
    ['tools=github', "an agent's MCP servers are what its file lists"],
  ])('--override %s is a usage error saying why', async (value, why) => {
    const { server, run, file } = await scriptedAgent([]);
    const result = await run(['run', file, 'x', '--override', value]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--override: \`${value.split('=')[0]}\` is not supported: ${why}`);
    expect(server.requests).toHaveLength(0);
  });
});
