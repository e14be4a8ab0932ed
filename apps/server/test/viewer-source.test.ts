// The viewer's server side without a browser: the live tree built from a run's events, the
// bounded in-memory list of finished sessions, and the `--viewer` / `viewer` settings.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent, AgentEventMeta, AgentResult } from '@agent/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServerArgs } from '../src/cli-options.js';
import { LiveSession } from '../src/viewer/live-session.js';
import { MemorySessionSource } from '../src/viewer/session-source.js';

const dir = mkdtempSync(join(tmpdir(), 'viewer-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const meta = (sessionId: string, agentPath: string): AgentEventMeta => ({
  isMaster: agentPath === 'lead',
  isFinal: false,
  sessionId,
  agentPath,
});
const limits = { maxNodes: 100, foldChars: 50 };

function finished(id: string, text = ''): LiveSession {
  const session = new LiveSession(id, 'lead', 'rest', limits, 1000);
  session.apply(
    { type: 'turn_started', turn: 1, attempt: 1, isRetry: false, isFinalTurn: false },
    meta('s', 'lead'),
  );
  const result = {
    success: false,
    error: `failed ${text}`,
    exitCode: 'EXIT-MODEL-ERROR',
    conversation: [],
    logs: [],
    accounting: [],
    sessionId: 's',
  } as unknown as AgentResult;
  session.finish(result, undefined, 2000);
  return session;
}

describe('the live tree of a run', () => {
  it('nests a sub-agent under the tool call that ran it and folds long arguments', () => {
    const session = new LiveSession('v1', 'lead', 'rest', limits, 1000);
    const events: [AgentEvent, AgentEventMeta][] = [
      [{ type: 'turn_started', turn: 1, attempt: 1, isRetry: false, isFinalTurn: false }, meta('a', 'lead')],
      [
        {
          type: 'progress',
          event: {
            type: 'tool_started',
            agentPath: 'lead',
            tool: 'agent__helper',
            callId: 'c1',
            arguments: { prompt: 'x'.repeat(200) },
          },
        },
        meta('a', 'lead'),
      ],
      [
        { type: 'turn_started', turn: 1, attempt: 1, isRetry: false, isFinalTurn: false },
        meta('b', 'lead.helper'),
      ],
    ];
    for (const [event, m] of events) session.apply(event, m, 1500);
    const turn = session.view.tree.children[0]!;
    expect(turn.label).toBe('turn 1');
    const tool = turn.children.find((node) => node.kind === 'tool')!;
    expect(tool.label).toBe('agent__helper');
    expect(tool.arguments).toContain('more characters not kept');
    expect(tool.arguments!.length).toBeLessThan(120);
    const helper = tool.children[0]!;
    expect(helper).toMatchObject({
      kind: 'session',
      label: 'lead.helper',
      sessionId: 'b',
      status: 'running',
    });
    expect(helper.children[0]?.children[0]).toMatchObject({ kind: 'llm', status: 'running' });
  });

  it('stops adding nodes at maxNodes and says how many it dropped', () => {
    const session = new LiveSession('v2', 'lead', 'rest', { maxNodes: 3, foldChars: 50 }, 1000);
    for (let turn = 1; turn <= 4; turn++) {
      session.apply(
        { type: 'turn_started', turn, attempt: 1, isRetry: false, isFinalTurn: false },
        meta('a', 'lead'),
      );
    }
    expect(session.view.tree.children).toHaveLength(1);
    // Turns 2-4 had no room (nor their model calls, which had no turn to go under).
    expect(session.view.droppedNodes).toBe(3);
  });
});

describe('the in-memory session source', () => {
  it('keeps at most maxSessions finished sessions, newest first, and tells subscribers', () => {
    const source = new MemorySessionSource({ maxSessions: 2, maxBytes: 1 << 20 });
    const changed: string[] = [];
    source.subscribe((id) => changed.push(id));
    for (const id of ['a', 'b', 'c']) {
      const session = finished(id);
      source.started(session);
      source.ended(session);
    }
    expect(source.list().map((s) => s.id)).toEqual(['c', 'b']);
    expect(source.get('a')).toBeUndefined();
    expect(source.get('c')?.status).toBe('failed');
    expect(changed).toEqual(['a', 'a', 'b', 'b', 'c', 'c']);
  });

  it('keeps finished sessions within maxBytes, dropping the oldest', () => {
    const one = Buffer.byteLength(JSON.stringify(finished('x', 'y'.repeat(40)).view));
    const source = new MemorySessionSource({ maxSessions: 100, maxBytes: one * 2 + 10 });
    for (const id of ['a', 'b', 'c', 'd']) source.ended(finished(id, 'y'.repeat(40)));
    expect(source.list().map((s) => s.id)).toEqual(['d', 'c']);
  });

  it('lists a running session until it ends', () => {
    const source = new MemorySessionSource({ maxSessions: 5, maxBytes: 1 << 20 });
    const session = new LiveSession('r', 'lead', 'openai', limits);
    source.started(session);
    expect(source.list()).toMatchObject([{ id: 'r', status: 'running', headend: 'openai' }]);
  });
});

describe('--viewer and server.json viewer', () => {
  it('takes the port from the flag or the file, and the bounds from the file', () => {
    const config = join(dir, 'server.json');
    writeFileSync(
      config,
      JSON.stringify({
        agents: ['a.ai'],
        api: 8080,
        viewer: { port: 8090, maxSessions: 50, maxStreams: 4, stalledStreamSeconds: 5 },
        tokens: ['t'],
      }),
    );
    expect(parseServerArgs(['--config', config], {}).viewer).toEqual({
      port: 8090,
      maxSessions: 50,
      maxStreams: 4,
      stalledStreamSeconds: 5,
    });
    expect(parseServerArgs(['--config', config, '--viewer', '9000'], {}).viewer).toEqual({
      port: 9000,
      maxSessions: 50,
      maxStreams: 4,
      stalledStreamSeconds: 5,
    });
  });

  it('refuses a bad port, unknown keys and bad bounds, saying what is allowed', () => {
    expect(() =>
      parseServerArgs(['--agent', 'a.ai', '--api', '0', '--viewer', 'web', '--token', 't'], {}),
    ).toThrow(/--viewer: a port is an integer 0-65535/);
    const config = join(dir, 'bad.json');
    writeFileSync(config, JSON.stringify({ agents: ['a.ai'], api: 1, viewer: { port: 1, color: 'red' } }));
    expect(() => parseServerArgs(['--config', config, '--token', 't'], {})).toThrow(
      /unknown key "viewer.color" \(allowed: port, maxSessions, maxBytes, maxStreams, stalledStreamSeconds, evals\)/,
    );
    writeFileSync(config, JSON.stringify({ agents: ['a.ai'], api: 1, viewer: { port: 1, maxBytes: -5 } }));
    expect(() => parseServerArgs(['--config', config, '--token', 't'], {})).toThrow(
      /"viewer.maxBytes" must be a positive integer, not -5/,
    );
  });

  it('needs tokens (or --allow-no-auth on loopback) and another face to watch', () => {
    expect(() => parseServerArgs(['--agent', 'a.ai', '--api', '0', '--viewer', '0'], {})).toThrow(
      /no tokens/,
    );
    expect(() => parseServerArgs(['--agent', 'a.ai', '--viewer', '0', '--token', 't'], {})).toThrow(
      /no headend/,
    );
    expect(
      parseServerArgs(['--agent', 'a.ai', '--api', '0', '--viewer', '0', '--allow-no-auth'], {}).viewer,
    ).toEqual({ port: 0 });
  });
});
