import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AccountingEntry, AgentResult } from '@agent/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import {
  agentFile,
  CLI_BIN,
  handWrittenSlot,
  isolatedEnv,
  removeWorkspaces,
  report,
  runCli,
  type Step,
  scriptedAgent,
  spawnCli,
  waitFor,
} from './helpers.js';

afterAll(removeWorkspaces);

const lastUserText = (messages: readonly { role: string; content: unknown }[], index = 0) =>
  messages.filter((message) => message.role === 'user').map((message) => String(message.content))[index];

describe('agent run: endings and exit codes', () => {
  it('prints only the report on stdout and exits 0 for a success report', async () => {
    const { run, file, server } = await scriptedAgent([report('The answer is **42**.')]);
    const result = await run(['run', file, 'What is the answer?']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('The answer is **42**.\n');
    expect(result.stdout).not.toContain('\x1b[');
    expect(result.stderr).not.toContain('42');
    expect(lastUserText(server.requests[0]!.messages)).toContain('What is the answer?');
  });

  it('exits 1 for a failure report and says so on stderr', async () => {
    const { run, file } = await scriptedAgent([report('Could not find the data.', { status: 'failure' })]);
    const result = await run(['run', file, 'Find the data']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('Could not find the data.\n');
    expect(result.stderr).toMatch(/reported status 'failure' \(exit 1\)/);
  });

  it('exits 3 when the turn limit is reached without a report', async () => {
    const empty: Step = () => ({ text: '', usage: { inputTokens: 10, outputTokens: 0 } });
    const { run, file } = await scriptedAgent(Array.from({ length: 8 }, () => empty));
    const result = await run(['run', file, 'Anything', '--max-turns', '1']);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('EXIT-MAX-TURNS-NO-RESPONSE');
    expect(result.stdout).toBe('');
  });

  it('exits 4 when the provider rejects the key', async () => {
    const { run, file } = await scriptedAgent([() => ({ error: { kind: 'auth' } })]);
    const result = await run(['run', file, 'Hello']);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('EXIT-AUTH-FAILURE');
  });

  it('exits 5 when the quota is gone and 7 when the model does not exist', async () => {
    const quota = await scriptedAgent([() => ({ error: { kind: 'quota' } })]);
    const noQuota = await quota.run(['run', quota.file, 'Hello']);
    expect(noQuota.code).toBe(5);
    expect(noQuota.stderr).toContain('EXIT-QUOTA-EXCEEDED');
    const missing = await scriptedAgent([() => ({ error: { kind: 'model_not_found' } })]);
    const noModel = await missing.run(['run', missing.file, 'Hello']);
    expect(noModel.code).toBe(7);
    expect(noModel.stderr).toContain('EXIT-MODEL-ERROR');
  });

  it('exits 6 when the run fails and every tool call failed', async () => {
    const { run, file } = await scriptedAgent([
      () => ({ toolCalls: [{ name: 'no_such_tool', arguments: { q: 1 } }] }),
      report('The tool is broken.', { status: 'failure' }),
    ]);
    const result = await run(['run', file, 'Use the tool']);
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr).toContain('every tool call failed');
  });

  it('exits 7 for an invalid agent file and names file:line on stderr', async () => {
    const { run, ws, server } = await scriptedAgent([]);
    const bad = ws.write('bad.ai', agentFile('models: test/scripted-model\nmaxTurnz: 3'));
    const result = await run(['run', bad, 'Hello']);
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/bad\.ai:4\b/);
    expect(result.stderr).toContain('maxTurnz');
    expect(result.stdout.trim()).not.toContain('maxTurnz');
    expect(server.requests.length).toBe(0);
  });
});

describe('agent run: input and options', () => {
  it('reads the prompt from stdin when it is absent or "-"', async () => {
    const { run, file, server } = await scriptedAgent([report('four'), report('five')]);
    const piped = await run(['run', file], { input: 'what is 2+2?\n' });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toBe('four\n');
    const dash = await run(['run', file, '-'], { input: 'what is 2+3?' });
    expect(dash.code, dash.stderr).toBe(0);
    expect(lastUserText(server.requests[0]!.messages)).toBe('what is 2+2?');
    expect(lastUserText(server.requests[1]!.messages)).toBe('what is 2+3?');
  });

  it('keeps logs on stderr in logfmt with --verbose', async () => {
    const { run, file } = await scriptedAgent([report('done')]);
    const result = await run(['run', file, 'Go', '--verbose']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('done\n');
    const lines = result.stderr.trim().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line).toMatch(/^ts=\S+ sev=(VRB|WRN|ERR|TRC|THK|FIN) type=(llm|tool) /);
    expect(result.stderr).toMatch(/remote=test:scripted-model /);
    expect(result.stderr).toContain('remote=agent:EXIT-FINAL-ANSWER');
  });

  it('shows what the model says outside its report on stderr with --verbose, never on stdout', async () => {
    const said: Step = (_request, nonce) => ({
      text: `Checking the numbers first.\nThey add up.\n${handWrittenSlot(nonce(), 'done', 'success')}`,
      usage: { inputTokens: 10, outputTokens: 5 },
    });
    const { run, file } = await scriptedAgent([said, said]);
    const verbose = await run(['run', file, 'Go', '--verbose']);
    expect(verbose.code, verbose.stderr).toBe(0);
    expect(verbose.stdout).toBe('done\n');
    const lines = verbose.stderr.split('\n').filter((line) => line.startsWith('type=assistant_text'));
    expect(lines).toEqual([
      'type=assistant_text agent=ask msg="Checking the numbers first."',
      'type=assistant_text agent=ask msg="They add up."',
    ]);
    const quiet = await run(['run', file, 'Go']);
    expect(quiet.stdout).toBe('done\n');
    expect(quiet.stderr).not.toContain('Checking the numbers');
  });

  it('prints the whole AgentResult with --json', async () => {
    const { run, file } = await scriptedAgent([report('# Title\n\nbody')]);
    const result = await run(['run', file, 'Go', '--json']);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as AgentResult;
    expect(parsed.success).toBe(true);
    expect(parsed.exitCode).toBe('EXIT-FINAL-ANSWER');
    expect(parsed.finalReport?.content).toBe('# Title\n\nbody');
    expect(parsed.accounting.some((entry) => entry.type === 'llm')).toBe(true);
  });

  it('appends every accounting entry to --accounting as JSON lines', async () => {
    const { run, file, ws, server } = await scriptedAgent([
      () => ({
        toolCalls: [
          {
            name: 'agent__task_status',
            arguments: { status: 'in-progress', done: '', pending: 'all', now: 'reading' },
          },
        ],
        usage: { inputTokens: 50, outputTokens: 5 },
      }),
      report('done'),
    ]);
    const path = ws.file('usage.jsonl');
    writeFileSync(path, '{"earlier":"line"}\n');
    const result = await run(['run', file, 'Go', '--accounting', path, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0]!)).toEqual({ earlier: 'line' });
    const entries = lines.slice(1).map((line) => JSON.parse(line) as AccountingEntry);
    const llm = entries.filter((entry) => entry.type === 'llm');
    expect(llm).toHaveLength(server.requests.length);
    expect(llm.map((entry) => entry.type === 'llm' && entry.tokens.inputTokens)).toEqual([50, 100]);
    expect(entries.some((entry) => entry.type === 'tool' && entry.command === 'agent__task_status')).toBe(
      true,
    );
    const parsed = JSON.parse(result.stdout) as AgentResult;
    expect(entries).toHaveLength(parsed.accounting.length);
  });

  it('replaces the file models with --model', async () => {
    const { run, file, server } = await scriptedAgent([report('ok')], 'models: test/model-from-file');
    const result = await run(['run', file, 'Go', '--model', 'spare/model-from-flag']);
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests.map((request) => request.model)).toEqual(['model-from-flag']);
  });

  it('asks for JSON matching --schema and prints the JSON', async () => {
    const { run, file, ws, server } = await scriptedAgent([
      report('{"answer": "forty-two", "confidence": 0.9}', { format: 'json' }),
    ]);
    const schema = ws.write(
      'schema.json',
      JSON.stringify({
        type: 'object',
        required: ['answer', 'confidence'],
        properties: { answer: { type: 'string' }, confidence: { type: 'number' } },
      }),
    );
    const result = await run(['run', file, 'Go', '--format', 'json', '--schema', schema]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ answer: 'forty-two', confidence: 0.9 });
    const notice = JSON.stringify(server.requests[0]!.messages);
    expect(notice).toContain('confidence');
  });

  it('sends the requested --format to the model', async () => {
    const { run, file, server } = await scriptedAgent([report('plain words', { format: 'text' })]);
    const result = await run(['run', file, 'Go', '--format', 'text']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('plain words\n');
    expect(JSON.stringify(server.requests[0]!.messages)).toContain('format=\\"text\\"');
  });

  it('prints raw Markdown without ANSI when piped, with or without NO_COLOR', async () => {
    const markdown = '# Heading\n\n- **bold** item\n- `code`';
    const { run, file } = await scriptedAgent([report(markdown), report(markdown)]);
    for (const env of [{}, { NO_COLOR: '1' }]) {
      const result = await run(['run', file, 'Go', '--verbose'], { env });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`${markdown}\n`);
      expect(result.stdout).not.toContain('\x1b[');
      expect(result.stderr).not.toContain('\x1b[');
    }
  });

  it('rejects bad arguments with exit 2', async () => {
    const { run, file, server } = await scriptedAgent([]);
    expect((await run(['run', file, 'Go', '--format', 'html'])).code).toBe(2);
    expect((await run(['run', file, 'Go', '--max-turns', 'zero'])).code).toBe(2);
    expect((await run(['run', file, 'Go', '--no-such-option'])).code).toBe(2);
    // Seed 003: the transport is fixed to xml-final; there is no option to change it.
    const transport = await run(['run', file, 'Go', '--transport', 'native']);
    expect(transport.code).toBe(2);
    expect(transport.stderr).toMatch(/--transport/);
    expect((await run(['run', file, 'Go', '--schema', 'missing.json'])).code).toBe(2);
    expect((await run(['run', file], { input: '\n' })).code).toBe(2);
    expect((await runCli(['run'])).code).toBe(2);
    expect((await runCli(['frobnicate'])).code).toBe(2);
    expect(server.requests.length).toBe(0);
  });
});

describe('signals', () => {
  it('on the first Ctrl-C asks the model for its report in a last turn, prints it and exits 130', async () => {
    const { ws, file, server } = await scriptedAgent([
      () => ({
        delayMs: 1_500,
        toolCalls: [
          {
            name: 'agent__task_status',
            arguments: { status: 'in-progress', done: '', pending: 'all', now: 'reading' },
          },
        ],
      }),
      report('Half done: read 2 of 4 files.', { status: 'partial' }),
    ]);
    const { child, done } = spawnCli(['run', file, 'Go', '--config', ws.file('agent.json')], {
      cwd: ws.dir,
      env: isolatedEnv(ws),
    });
    await waitFor(() => server.requests.length === 1);
    child.kill('SIGINT');
    const result = await done;
    expect(result.code, result.stderr).toBe(130);
    expect(result.stdout).toBe('Half done: read 2 of 4 files.\n');
    expect(result.stderr).toContain('stopping');
    expect(result.stderr).toContain("interrupted; the agent reported status 'partial' (exit 130)");
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[1]!.messages)).toContain('FINAL TURN');
  });

  it('cancels at once on the second Ctrl-C and exits 130 with nothing on stdout', async () => {
    const { ws, file, server } = await scriptedAgent([() => ({ text: 'never sent', delayMs: 30_000 })]);
    const { child, done } = spawnCli(['run', file, 'Go', '--config', ws.file('agent.json')], {
      cwd: ws.dir,
      env: isolatedEnv(ws),
    });
    await waitFor(() => server.requests.length === 1);
    const sent = Date.now();
    child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill('SIGINT');
    const result = await done;
    expect(result.code, result.stderr).toBe(130);
    expect(Date.now() - sent).toBeLessThan(10_000);
    expect(result.stderr).toContain('cancelled');
    expect(result.stdout).toBe('');
  });
});

describe('agent <file.ai>', () => {
  it('runs a file given as the first argument, and a #!/usr/bin/env agent file directly', async () => {
    const { ws, file, server } = await scriptedAgent([report('short'), report('direct')]);
    const env = { ...isolatedEnv(ws) };
    const short = await runCli([file, 'Go', '--config', ws.file('agent.json')], { cwd: ws.dir, env });
    expect(short.code, short.stderr).toBe(0);
    expect(short.stdout).toBe('short\n');

    const binDir = join(ws.dir, 'bin');
    mkdirSync(binDir);
    writeFileSync(join(binDir, 'agent'), `#!/bin/sh\nexec "${process.execPath}" "${CLI_BIN}" "$@"\n`);
    chmodSync(join(binDir, 'agent'), 0o755);
    chmodSync(file, 0o755);
    const { spawn } = await import('node:child_process');
    const direct = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(file, ['Go', '--config', ws.file('agent.json')], {
        cwd: ws.dir,
        env: { ...process.env, ...env, PATH: `${binDir}:${process.env.PATH ?? ''}` },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.stdin.end();
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(direct.code, direct.stderr).toBe(0);
    expect(direct.stdout).toBe('direct\n');
    expect(server.requests.length).toBe(2);
  });
});
