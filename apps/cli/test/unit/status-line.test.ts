import type { AgentEvent, AgentEventMeta } from '@agent/protocol';
import { describe, expect, it } from 'vitest';
import { applyStatusEvent, formatElapsed, renderStatus, StatusLine } from '../../src/output/status-line.js';

const master: AgentEventMeta = { isMaster: true, isFinal: false, sessionId: 's', agentPath: 'main' };
const child: AgentEventMeta = {
  isMaster: false,
  isFinal: false,
  sessionId: 'c',
  agentPath: 'main.summarizer',
};

function fakeOut() {
  const chunks: string[] = [];
  return { chunks, write: (text: string) => chunks.push(text) };
}

function log(
  direction: 'request' | 'response',
  type: 'llm' | 'tool',
  remote: string,
  message: string,
): AgentEvent {
  return {
    type: 'log',
    entry: { timestamp: 0, severity: 'VRB', direction, type, remoteIdentifier: remote, message },
  };
}

function tool(
  type: 'tool_started' | 'tool_finished',
  callId: string,
  name = 'fs__Read',
  agentPath = 'main',
): AgentEvent {
  return { type: 'progress', event: { type, agentPath, tool: name, callId } };
}

describe('status line', () => {
  it('shows turn, model, running tools, tokens, cost and elapsed time', () => {
    let now = 1_000;
    const out = fakeOut();
    const line = new StatusLine({ out, ansi: false, columns: () => 200, now: () => now, throttleMs: 0 });
    line.onEvent({ type: 'turn_started', turn: 2, attempt: 1, isRetry: false, isFinalTurn: false }, master);
    line.onEvent(log('request', 'llm', 'openai:gpt-4o', 'attempt 1'), master);
    line.onEvent(tool('tool_started', 'call_1'), master);
    line.onEvent(
      {
        type: 'accounting',
        entry: {
          type: 'llm',
          timestamp: 0,
          status: 'ok',
          latency: 5,
          provider: 'openai',
          model: 'gpt-4o',
          costUsd: 0.0123,
          tokens: { inputTokens: 1200, outputTokens: 34, totalTokens: 1234 },
        },
      },
      master,
    );
    now += 65_000;
    const text = renderStatus(line.state, now, 200);
    expect(text).toBe('turn 2 | 1m05s | 1200 in / 34 out tok | $0.0123 | openai:gpt-4o | tools: fs__Read');
    line.onEvent(tool('tool_finished', 'call_1'), master);
    expect(renderStatus(line.state, now, 200)).not.toContain('tools:');
    // A sub-agent's turns do not move the master's turn; its model is labelled with its path.
    line.onEvent({ type: 'turn_started', turn: 7, attempt: 1, isRetry: false, isFinalTurn: false }, child);
    line.onEvent(log('request', 'llm', 'openai:gpt-4o-mini', 'attempt 1'), child);
    expect(renderStatus(line.state, now, 200)).toMatch(
      /^turn 2 \| .* \| main\.summarizer openai:gpt-4o-mini$/,
    );
  });

  it("counts the top agent's compactions that replaced turns", () => {
    const line = new StatusLine({
      out: fakeOut(),
      ansi: false,
      columns: () => 200,
      now: () => 0,
      throttleMs: 0,
    });
    const compaction = (outcome: 'compacted' | 'failed', meta: AgentEventMeta): void =>
      line.onEvent(
        {
          type: 'compaction',
          run: {
            index: 1,
            turn: 3,
            trigger: 'turn_projection',
            outcome,
            beforeTokens: 9000,
            afterTokens: outcome === 'compacted' ? 2000 : 9000,
            limitTokens: 10_000,
            thresholdTokens: 8000,
            messages: 6,
            fromTurn: 1,
            toTurn: 2,
            calls: 1,
            durationMs: 10,
          },
        },
        meta,
      );
    line.onEvent({ type: 'turn_started', turn: 3, attempt: 1, isRetry: false, isFinalTurn: false }, master);
    expect(renderStatus(line.state, 0, 200)).not.toContain('compaction');
    compaction('compacted', master);
    expect(renderStatus(line.state, 0, 200)).toBe('turn 3 | 0s | 0 in / 0 out tok | 1 compaction');
    compaction('failed', master);
    compaction('compacted', child);
    compaction('compacted', master);
    expect(renderStatus(line.state, 0, 200)).toContain('| 2 compactions');
  });

  it('tracks running tools by agent path and call id from tool_started / tool_finished, never from log text', () => {
    const line = new StatusLine({ out: fakeOut(), ansi: false, columns: () => 200, now: () => 0 });
    const shown = () => renderStatus(line.state, 0, 200).split(' | ').at(-1);
    // Log lines about tools (the text the status line used to parse) change nothing.
    expect(applyStatusEvent(line.state, log('request', 'tool', 'mcp:fs:Read', 'call c1: {}'), master)).toBe(
      false,
    );
    expect(line.state.tools.size).toBe(0);
    // Two parallel calls of one tool, and the same call id in a sub-agent.
    line.onEvent(tool('tool_started', 'c1'), master);
    line.onEvent(tool('tool_started', 'c2'), master);
    line.onEvent(tool('tool_started', 'c1', 'web__Fetch', 'main.researcher'), child);
    expect(shown()).toBe('tools: fs__Read, web__Fetch');
    line.onEvent(tool('tool_finished', 'c1'), master);
    expect(shown()).toBe('tools: fs__Read, web__Fetch');
    line.onEvent(tool('tool_finished', 'c2'), master);
    expect(shown()).toBe('tools: web__Fetch');
    line.onEvent(tool('tool_finished', 'c1', 'web__Fetch', 'main.researcher'), child);
    expect(renderStatus(line.state, 0, 200)).not.toContain('tools:');
    // A finish without a start (or twice) is harmless.
    line.onEvent(tool('tool_finished', 'c9'), master);
    expect(line.state.tools.size).toBe(0);
  });

  it('fits the terminal width', () => {
    const line = new StatusLine({ out: fakeOut(), ansi: false, columns: () => 20, now: () => 0 });
    line.state.model = 'a-very-long-provider-name:an-even-longer-model-name';
    expect(renderStatus(line.state, 0, 20).length).toBeLessThanOrEqual(19);
  });

  it('redraws in place and clears itself; without ANSI it uses spaces, not escapes', () => {
    const out = fakeOut();
    const line = new StatusLine({ out, ansi: false, columns: () => 80, now: () => 0, throttleMs: 0 });
    line.start();
    line.printAbove('a log line\n');
    line.stop();
    const all = out.chunks.join('');
    expect(all).not.toContain('\x1b');
    expect(all.startsWith('\rstarting | 0s')).toBe(true);
    expect(all).toContain('a log line\n');
    expect(all.endsWith('\r')).toBe(true);
  });

  it('uses clear-line escapes with ANSI and throttles redraws', () => {
    const out = fakeOut();
    const now = 0;
    const line = new StatusLine({ out, ansi: true, columns: () => 80, now: () => now, throttleMs: 100 });
    line.start();
    for (let i = 0; i < 50; i++) line.update();
    expect(out.chunks.length).toBe(1);
    line.stop();
    expect(out.chunks.at(-1)).toBe('\r\x1b[2K');
  });

  it('formats elapsed time', () => {
    expect(formatElapsed(0)).toBe('0s');
    expect(formatElapsed(59_999)).toBe('59s');
    expect(formatElapsed(3_600_000)).toBe('60m00s');
  });
});
