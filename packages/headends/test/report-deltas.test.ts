import type { AgentEvent, AgentEventMeta } from '@agent/protocol';
import { describe, expect, test } from 'vitest';
import { ReportDeltas } from '../src/report-deltas.js';

const meta = (source: AgentEventMeta['source']): AgentEventMeta => ({
  isMaster: true,
  isFinal: false,
  sessionId: 's-1',
  agentPath: 'echo',
  source,
});
const out = (text: string): AgentEvent => ({ type: 'output', text });

describe('ReportDeltas: which report text a chat stream sends', () => {
  test('text a resumed session replays from its journal is sent like streamed text, and counts as streamed', () => {
    const deltas = new ReportDeltas();
    expect(deltas.onEvent(out('Hello '), meta('stream'))).toEqual({ content: 'Hello ' });
    expect(deltas.onEvent(out('world'), meta('journal'))).toEqual({ content: 'world' });
    // Nothing is owed at the end: the report went out as it came.
    expect(deltas.remainder('Hello world')).toBeUndefined();
  });

  test('a journal replay alone (the client got nothing before) is the answer, not repeated at the end', () => {
    const deltas = new ReportDeltas();
    expect(deltas.onEvent(out('Hello world'), meta('journal'))).toEqual({ content: 'Hello world' });
    expect(deltas.remainder('Hello world')).toBeUndefined();
    expect(deltas.onEvent({ type: 'thinking', text: 'hmm' }, meta('journal'))).toEqual({ reasoning: 'hmm' });
  });
});
