// Issue 35: tool names a model invents must not become Prometheus label values (each one would be
// a series for the life of the process). Only configured tools, servers, agents and models are
// label values; anything else is counted under `other`.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finalReport, startModelServer, toolCalls } from '@agent/testkit';
import { afterEach, expect, test } from 'vitest';
import { loadAgents } from '../src/agent-catalog.js';
import { knownMetricLabels, MAX_GUARDRAIL_LABELS } from '../src/metric-labels.js';
import { AgentMetrics } from '../src/metrics.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const INVENTED = Array.from({ length: 30 }, (_, i) => `invented_tool_${i}`);
const INVENTED_INTERNAL = Array.from({ length: 5 }, (_, i) => `agent__invented_${i}`);

/** Label values of one metric in a scrape (`name{a="x",b="y"} n` lines). */
function labelValues(text: string, metric: string, label: string): Set<string> {
  const values = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${metric}{`)) continue;
    const found = new RegExp(`[{,]${label}="([^"]*)"`).exec(line);
    if (found !== null) values.add(found[1]!);
  }
  return values;
}

test('invented tool names are counted under `other`; configured tools, servers, agents and models keep their names', async () => {
  const api = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"now":"noon"}'),
  );
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => api.close(() => resolve())));
  const models = await startModelServer({
    steps: [
      toolCalls(
        ['rest__time'],
        ...INVENTED.map((name): [string] => [name]),
        ...INVENTED_INTERNAL.map((name): [string] => [name]),
      ),
      finalReport('done'),
    ],
  });
  cleanups.push(() => models.close());
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'server-metric-labels-')));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({
      providers: { local: { type: 'openai-compatible', baseURL: `${models.url}/v1` } },
      restTools: {
        time: {
          description: 'The time',
          url: `http://127.0.0.1:${(api.address() as AddressInfo).port}/time`,
        },
      },
    }),
  );
  writeFileSync(
    join(dir, 'asker.ai'),
    '---\nmodels: [local/m]\ntools: [time]\nmaxToolCallsPerTurn: 100\n---\nYou ask the time.\n',
  );
  const files = [join(dir, 'asker.ai')];
  const configPath = join(dir, 'agent.json');
  const agents = await loadAgents(files, configPath);
  cleanups.push(() => agents.close());
  const metrics = new AgentMetrics(await knownMetricLabels(files, configPath));
  const catalog = metrics.catalog(agents.catalog);
  const result = await catalog.get('asker')!.run('what time is it?', {});
  expect(result.success, result.error).toBe(true);

  const text = await metrics.registry.metrics();
  const tools = labelValues(text, 'agent_tool_calls_total', 'tool');
  const servers = labelValues(text, 'agent_tool_calls_total', 'server');
  expect([...tools].sort()).toEqual(['other', 'rest__time']);
  expect([...servers].sort()).toEqual(['agent', 'other', 'time']);
  for (const name of [...INVENTED, ...INVENTED_INTERNAL]) expect(text).not.toContain(name);
  // Every invented call is still counted, as a failure of `other`.
  expect(text).toContain(
    `agent_tool_calls_total{server="other",tool="other",status="failed"} ${INVENTED.length}`,
  );
  expect(labelValues(text, 'agent_llm_requests_total', 'model')).toEqual(new Set(['m']));
  expect(labelValues(text, 'agent_sessions_total', 'agent')).toEqual(new Set(['asker']));
});

test('context-guard labels are the known triggers and outcomes and configured models; anything else is not a label', async () => {
  const metrics = new AgentMetrics({ agents: ['a'], models: ['local/m'], servers: [] });
  const meta = { isMaster: true, sessionId: 's', agentPath: 'a' } as Parameters<AgentMetrics['observe']>[1];
  const guardLine = (details: Record<string, string | number>) =>
    ({
      type: 'log',
      entry: {
        timestamp: 1,
        severity: 'WRN',
        direction: 'response',
        type: 'llm',
        remoteIdentifier: 'agent:EXIT-TOKEN-LIMIT',
        message: 'm',
        details,
      },
    }) as Parameters<AgentMetrics['observe']>[0];
  metrics.observe(
    guardLine({
      trigger: 'turn_projection',
      outcome: 'final_turn_forced',
      provider: 'local',
      model: 'm',
      remaining_tokens: 7,
    }),
    meta,
  );
  metrics.observe(
    guardLine({
      trigger: 'turn_projection',
      outcome: 'final_turn_forced',
      provider: 'evil',
      model: 'invented-model',
      remaining_tokens: 3,
    }),
    meta,
  );
  metrics.observe(guardLine({ trigger: 'free text from somewhere', outcome: 'final_turn_forced' }), meta);
  metrics.observe(guardLine({ trigger: 'tool_result', outcome: 'rm -rf' }), meta);
  const text = await metrics.registry.metrics();
  expect(text).toContain(
    'agent_context_guard_events_total{provider="local",model="m",trigger="turn_projection",outcome="final_turn_forced"} 1',
  );
  expect(text).toContain(
    'agent_context_guard_events_total{provider="other",model="other",trigger="turn_projection",outcome="final_turn_forced"} 1',
  );
  expect(text).toContain(
    'agent_context_guard_remaining_tokens{provider="local",model="m",trigger="turn_projection",outcome="final_turn_forced"} 7',
  );
  for (const value of ['evil', 'invented-model', 'free text', 'rm -rf']) expect(text).not.toContain(value);
});

test('guardrail runs and tool policy decisions are counted; guardrail names past the bound are `other`', async () => {
  const metrics = new AgentMetrics({ agents: [], models: [], servers: [] });
  const meta = { isMaster: true, isFinal: false, sessionId: 's', agentPath: 'a' };
  const run = (name: string, outcome: 'pass' | 'block', latencyMs = 4) =>
    metrics.observe(
      { type: 'guardrail', run: { name, on: 'output', phase: 'report', outcome, latencyMs } },
      meta,
    );
  run('no-cards', 'pass');
  run('no-cards', 'pass');
  run('no-cards', 'block', 2_000);
  for (let i = 0; i < MAX_GUARDRAIL_LABELS + 5; i += 1) run(`made-up-${i}`, 'pass');
  metrics.observe(
    {
      type: 'tool_policy',
      verdict: { callId: 'c1', tool: 'http__post', decision: 'ask', rule: 0, ruleName: 'big' },
    },
    meta,
  );
  const text = await metrics.registry.metrics();
  expect(text).toContain(
    'agent_guardrail_runs_total{guardrail="no-cards",stage="output",phase="report",outcome="pass"} 2',
  );
  expect(text).toContain(
    'agent_guardrail_runs_total{guardrail="no-cards",stage="output",phase="report",outcome="block"} 1',
  );
  expect(text).toContain('agent_guardrail_duration_seconds_count{guardrail="no-cards",stage="output"} 3');
  // The first names keep theirs; the ones past the bound are one `other` series.
  const names = labelValues(text, 'agent_guardrail_runs_total', 'guardrail');
  expect(names.size).toBe(MAX_GUARDRAIL_LABELS + 1);
  expect(text).toContain(
    'agent_guardrail_runs_total{guardrail="other",stage="output",phase="report",outcome="pass"} 6',
  );
  expect(text).toContain('agent_tool_policy_decisions_total{decision="ask",by="rule"} 1');
});

test('compactions are counted by outcome and trigger, with the tokens the compacted ones took out', async () => {
  const metrics = new AgentMetrics({ agents: [], models: [], servers: [] });
  const meta = { isMaster: false, isFinal: false, sessionId: 's', agentPath: 'a.child' };
  const compaction = (
    outcome: 'compacted' | 'failed',
    beforeTokens: number,
    afterTokens: number,
    trigger: 'turn_projection' | 'tool_result' = 'turn_projection',
  ) =>
    metrics.observe(
      {
        type: 'compaction',
        run: {
          index: 1,
          turn: 5,
          trigger,
          outcome,
          beforeTokens,
          afterTokens,
          limitTokens: 12_000,
          thresholdTokens: 9_600,
          messages: outcome === 'compacted' ? 8 : 0,
          fromTurn: 1,
          toTurn: 3,
          calls: outcome === 'compacted' ? 1 : 2,
          durationMs: 40,
        },
      },
      meta,
    );
  compaction('compacted', 10_000, 3_000);
  compaction('compacted', 9_800, 3_300, 'tool_result');
  compaction('failed', 9_900, 9_900);
  const text = await metrics.registry.metrics();
  expect(text).toContain('agent_compactions_total{outcome="compacted",trigger="turn_projection"} 1');
  expect(text).toContain('agent_compactions_total{outcome="compacted",trigger="tool_result"} 1');
  expect(text).toContain('agent_compactions_total{outcome="failed",trigger="turn_projection"} 1');
  expect(text).toContain('agent_compaction_tokens_saved_total 13500');
});
