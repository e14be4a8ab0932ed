import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { legacyDirectory } from './ai-agent-fixture.js';
import { removeWorkspaces, report, type Step } from './helpers.js';

afterAll(removeWorkspaces);

// The `ai-agent` bin's flags, each checked by what reaches the model (the testkit server
// records every request) or what is written, run as child processes.

type Body = Record<string, unknown>;
const bodyOf = (server: { requests: readonly { body?: unknown }[] }, index: number) =>
  server.requests[index]!.body as Body;

const CLAUDE_AGENT = '---\nmodels: claude/claude-sonnet-4-5\nreasoning: high\n---\nThink, then answer.\n';

describe('ai-agent reasoning and caching flags (Anthropic requests)', () => {
  it('--reasoning-tokens sets the thinking budget; --reasoning none turns the file’s thinking off', async () => {
    const { server, ws, aiAgent } = await legacyDirectory([report('budgeted'), report('no thinking')]);
    ws.write('think.ai', CLAUDE_AGENT);
    const budgeted = await aiAgent(['--agent', 'think.ai', '--reasoning-tokens', '4096', 'go']);
    expect(budgeted.code, budgeted.stderr).toBe(0);
    expect(bodyOf(server, 0).thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    const off = await aiAgent(['--agent', 'think.ai', '--reasoning', 'none', 'go']);
    expect(off.code, off.stderr).toBe(0);
    expect(bodyOf(server, 1)).not.toHaveProperty('thinking');
  });

  it('caching: cache_control by default; --caching none sends none', async () => {
    const { server, ws, aiAgent } = await legacyDirectory([report('cached'), report('uncached')]);
    ws.write('think.ai', CLAUDE_AGENT);
    expect((await aiAgent(['--agent', 'think.ai', 'go'])).code).toBe(0);
    expect(JSON.stringify(bodyOf(server, 0))).toContain('"cache_control":{"type":"ephemeral"}');
    const none = await aiAgent(['--agent', 'think.ai', '--caching', 'none', 'go']);
    expect(none.code, none.stderr).toBe(0);
    expect(JSON.stringify(bodyOf(server, 1))).not.toContain('cache_control');
  });

  it('frontmatter `caching: none` reaches the request the same way', async () => {
    const { server, ws, aiAgent } = await legacyDirectory([report('uncached')]);
    ws.write('plain.ai', '---\nmodels: claude/claude-sonnet-4-5\ncaching: none\n---\nAnswer.\n');
    expect((await aiAgent(['--agent', 'plain.ai', 'go'])).code).toBe(0);
    expect(JSON.stringify(bodyOf(server, 0))).not.toContain('cache_control');
  });
});

describe('ai-agent output flags', () => {
  it('--billing-file appends one JSON line per accounting entry', async () => {
    const { ws, aiAgent } = await legacyDirectory([report('billed')]);
    const result = await aiAgent(['main.ai', 'hi', '--billing-file', 'cost.jsonl']);
    expect(result.code, result.stderr).toBe(0);
    const lines = readFileSync(ws.file('cost.jsonl'), 'utf8').trimEnd().split('\n');
    const entries = lines.map((line) => JSON.parse(line) as Body);
    expect(entries).toContainEqual(
      expect.objectContaining({ type: 'llm', provider: 'nova', model: 'gpt-oss', agentPath: 'main' }),
    );
    expect(JSON.stringify(entries)).toContain('"inputTokens":100');
  });

  it("persistence.billingFile and sessionsDir of .ai-agent.json: the run's accounting and its record go there", async () => {
    const { ws, aiAgent } = await legacyDirectory([report('kept'), report('flagged')], {
      persistence: { sessionsDir: './state', billingFile: './bills.jsonl' },
    });
    const result = await aiAgent(['main.ai', 'hi']);
    expect(result.code, result.stderr).toBe(0);
    const bills = readFileSync(ws.file('bills.jsonl'), 'utf8');
    expect(bills).toContain('"model":"gpt-oss"');
    expect(readdirSync(ws.file('state')).filter((name) => name.endsWith('.json.gz'))).toHaveLength(1);
    // --billing-file is an extra file of this run; the ledger keeps every run.
    expect((await aiAgent(['main.ai', 'hi', '--billing-file', 'other.jsonl'])).code).toBe(0);
    const other = readFileSync(ws.file('other.jsonl'), 'utf8');
    expect(other).toContain('"model":"gpt-oss"');
    const ledger = readFileSync(ws.file('bills.jsonl'), 'utf8').trimEnd().split('\n');
    expect(ledger).toHaveLength(bills.trimEnd().split('\n').length + other.trimEnd().split('\n').length);
  });

  it('--quiet prints the report and nothing else', async () => {
    const { aiAgent } = await legacyDirectory([report('only this')], {});
    const result = await aiAgent(['main.ai', 'hi', '--quiet']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('only this');
    expect(result.stderr).toBe('');
  });

  it('--schema @file: the schema from the file is what the model is asked for, and the report is json', async () => {
    const { server, ws, aiAgent } = await legacyDirectory([report('{"headline":"ok"}', { format: 'json' })]);
    ws.write(
      'report.schema.json',
      JSON.stringify({
        type: 'object',
        properties: { headline: { type: 'string' } },
        required: ['headline'],
      }),
    );
    const result = await aiAgent(['--agent', 'main.ai', '--schema', '@report.schema.json', 'news?']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ headline: 'ok' });
    expect(JSON.stringify(bodyOf(server, 0))).toContain('headline');
    const missing = await aiAgent(['--agent', 'main.ai', '--schema', '@nope.json', 'news?']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--schema: cannot read nope.json');
  });
});

describe('ai-agent --models', () => {
  it('a comma list is a fallback chain: the second model answers when the first fails', async () => {
    const failFirst: Step = (request, nonce) =>
      request.model === 'broken'
        ? { error: { kind: 'model_not_found', message: 'model broken is gone' } }
        : report('from the fallback')(request, nonce);
    const { server, aiAgent } = await legacyDirectory([failFirst, failFirst]);
    const result = await aiAgent(['main.ai', 'hi', '--models', 'nova/broken, nova/spare']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('from the fallback');
    expect(server.requests.map((request) => request.model)).toEqual(['broken', 'spare']);
  });

  it('applies to the top agent only: a sub-agent keeps the models of its own file', async () => {
    const callHelper: Step = () => ({
      text: 'Asking.',
      toolCalls: [{ id: 'c1', name: 'agent__helper', arguments: { prompt: 'help' } }],
    });
    const { server, ws, aiAgent } = await legacyDirectory([
      callHelper,
      report('helped', { format: 'sub-agent' }),
      report('done'),
    ]);
    ws.write('boss.ai', '---\nmodels: nova/gpt-oss\nagents: [helper.ai]\n---\nDelegate.\n');
    ws.write('helper.ai', '---\nmodels: nova/helper-model\ndescription: Helps\n---\nHelp.\n');
    const result = await aiAgent(['--agent', 'boss.ai', '--models', 'nova/top-model', 'go']);
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests.map((request) => request.model)).toEqual([
      'top-model',
      'helper-model',
      'top-model',
    ]);
  });

  it('a bad entry names --models and the form expected', async () => {
    const { aiAgent } = await legacyDirectory([]);
    const result = await aiAgent(['main.ai', 'hi', '--models', 'gpt-4o']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--models: 'gpt-4o' is not provider/model");
  });
});

describe('ai-agent --stream, --cache, --resume', () => {
  it('--no-stream asks for whole answers; streaming is the default', async () => {
    const { server, aiAgent } = await legacyDirectory([report('streamed'), report('whole')]);
    expect((await aiAgent(['main.ai', 'hi'])).code).toBe(0);
    expect(bodyOf(server, 0).stream).toBe(true);
    const whole = await aiAgent(['main.ai', 'hi', '--no-stream']);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stdout).toContain('whole');
    expect(bodyOf(server, 1).stream).toBe(false);
  });

  it('--cache 1mo: the same question again is answered from the response cache without a model call', async () => {
    const { server, aiAgent } = await legacyDirectory([report('cached answer')]);
    const first = await aiAgent(['main.ai', 'same question', '--cache', '1mo']);
    expect(first.code, first.stderr).toBe(0);
    const second = await aiAgent(['main.ai', 'same question', '--cache', '1mo']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('cached answer');
    expect(server.requests).toHaveLength(1);
    const bad = await aiAgent(['main.ai', 'same question', '--cache', 'forever']);
    expect(bad.code).toBe(7);
    expect(bad.stderr).toContain('`cache` must be off, a number of milliseconds, or a duration');
  });

  it('--resume continues a stored session where it stopped; it takes no prompt', async () => {
    const callHelper: Step = () => ({
      text: 'Asking.',
      toolCalls: [{ id: 'call_h1', name: 'agent__helper', arguments: { prompt: 'say hi' } }],
    });
    const { server, ws, aiAgent } = await legacyDirectory([
      callHelper,
      report('hi', { format: 'sub-agent' }),
      report('Resumed: the helper said hi.'),
    ]);
    ws.write(
      'boss.ai',
      '---\nmodels: nova/gpt-oss\nagents: [helper.ai]\napproval:\n  tools: [agent__helper]\n---\nGreet.\n',
    );
    ws.write('helper.ai', '---\nmodels: nova/gpt-oss\ndescription: Says hi\n---\nSay hi.\n');
    const paused = await aiAgent(['--agent', 'boss.ai', 'Greet me.']);
    expect(paused.code).toBe(10);
    const id = /session (\S+) waits for 1 tool call/.exec(paused.stderr)?.[1];
    expect(id).toBeDefined();
    const withPrompt = await aiAgent(['--agent', 'boss.ai', '--resume', id!, 'again']);
    expect(withPrompt.code).toBe(2);
    expect(withPrompt.stderr).toContain(
      '--resume continues the stored session where it stopped; it takes no prompt',
    );
    // Still waiting: no decision was given, so the run pauses again without calling the model.
    const again = await aiAgent(['--agent', 'boss.ai', '--resume', id!]);
    expect(again.code).toBe(10);
    expect(again.stderr).toContain(`session ${id} waits for 1 tool call`);
    expect(server.requests).toHaveLength(1);
  });
});

describe('ai-agent flags this runtime refuses', () => {
  it.each([
    ['--tools', 'github', "an agent's MCP servers are what its file lists"],
    ['--agents', 'a.ai,b.ai', "an agent's sub-agents are what its file lists"],
    ['--sessions-dir', '/tmp/x', 'set `persistence.sessionsDir` in agent.json or .ai-agent.json'],
  ])('%s is a usage error saying why and what to do instead', async (flag, value, why) => {
    const { server, aiAgent } = await legacyDirectory([]);
    const result = await aiAgent(['main.ai', 'hi', flag, value]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${flag} is not supported by this runtime: ${why}`);
    expect(server.requests).toHaveLength(0);
  });
});
