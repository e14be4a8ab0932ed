import type { RecordNode, SessionRecord, SessionTape, TapeModelCall } from '@agent/protocol';

/** A hand-built v2 tape: a system message naming the nonce, a user prompt, and `calls`. */
export function tape(agentPath: string, nonce: string, calls: Partial<TapeModelCall>[] = []): SessionTape {
  return {
    agentPath,
    ordinal: 0,
    messages: [
      { role: 'system', content: `Be brief. End with <ai-agent-${nonce}-FINAL>.` },
      { role: 'user', content: 'What is 2+2?' },
    ],
    tools: [
      {
        name: 'calc',
        description: 'adds',
        inputSchema: { type: 'object', properties: { a: { type: 'number' } } },
      },
    ],
    calls: calls.map((call) => ({
      provider: 'test',
      model: 'm',
      startedAt: 0,
      durationMs: 1,
      messages: [0, 1],
      tools: [0],
      options: { stream: true },
      ...call,
    })),
    toolCalls: [],
  };
}

/** A v2 record whose root session carries `root` and whose report says `content`. */
export function record(root: SessionTape, content: string, children: SessionTape[] = []): SessionRecord {
  const node = (t: SessionTape, nested: RecordNode[] = []): RecordNode => ({
    id: t.agentPath,
    kind: 'session',
    label: t.agentPath,
    startedAt: 0,
    status: 'ok',
    tape: t,
    children: nested,
  });
  return {
    kind: 'agent-session-record',
    version: 2,
    sessionId: 's1',
    agent: 'lead',
    startedAt: 0,
    endedAt: 1,
    durationMs: 1,
    success: true,
    exitCode: 'EXIT-FINAL-ANSWER',
    finalReport: { status: 'success', format: 'markdown', content, ts: 5 },
    totals: {} as SessionRecord['totals'],
    tree: node(
      root,
      children.map((child) => node(child)),
    ),
    input: { agentFile: '/x/lead.ai', prompt: 'What is 2+2?', promptFacts: {} },
    logs: [],
    accounting: [],
  };
}
